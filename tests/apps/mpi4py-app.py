# mpi4py-app.py — a small mpi4py program for the MPI recording tests, run by Debian's own
# interpreter (/usr/bin/python3, which has python3-mpi4py): Python loads libmpi late, as a
# dependency of an extension module.  Rank 0 sends 16 bytes to rank 1 with tag 7 and gets
# them back with tag 8, then every rank takes part in an MPI_Bcast of 5 ints from rank 0
# and an MPI_Allreduce of 3 doubles.  Rank 0 prints one JSON line of what it did.
import json

from mpi4py import MPI
import array

comm = MPI.COMM_WORLD
rank = comm.Get_rank()
size = comm.Get_size()
buf = bytearray(16)
if rank == 0:
    comm.Send([bytearray(b"0123456789abcdef"), MPI.BYTE], dest=1, tag=7)
    comm.Recv([buf, MPI.BYTE], source=1, tag=8)
elif rank == 1:
    comm.Recv([buf, MPI.BYTE], source=0, tag=7)
    comm.Send([buf, MPI.BYTE], dest=0, tag=8)
ints = array.array("i", [1, 2, 3, 4, 5] if rank == 0 else [0] * 5)
comm.Bcast([ints, MPI.INT], root=0)
x = array.array("d", [1.0, 2.0, 3.0])
y = array.array("d", [0.0] * 3)
comm.Allreduce([x, MPI.DOUBLE], [y, MPI.DOUBLE], op=MPI.SUM)
if rank == 0:
    print(json.dumps({"ranks": size, "bcast": list(ints), "allreduce": list(y)}))
