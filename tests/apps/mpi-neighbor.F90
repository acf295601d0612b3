! mpi-neighbor.F90 — the neighbourhood collectives from Fortran, for func/t-mpi-neighbor.sh:
! on a periodic ring (MPI_CART_CREATE, two sources and two destinations each) every rank
! calls MPI_NEIGHBOR_ALLGATHER, MPI_NEIGHBOR_ALLTOALLW (datatypes and MPI_Aint displacements
! per neighbour) and MPI_INEIGHBOR_ALLTOALL (MPI_WAIT) with blocks of 100 default integers,
! checks what it received, and rank 0 prints what the job did as one JSON line, as
! apps/mpi-neighbor.c does.  Built with `use mpi`, or with `use mpi_f08` (-DUSE_MPI_F08); the
! ring made by MPI_DIST_GRAPH_CREATE_ADJACENT instead with -DRING_AS_DIST_GRAPH.
program neighbor_test
#ifdef USE_MPI_F08
  use mpi_f08
  implicit none
  type(MPI_Comm) :: ring
  type(MPI_Datatype) :: types(2)
  type(MPI_Request) :: req
#else
  use mpi
  implicit none
  integer :: ring, types(2), req
#endif
  integer :: ierr, rank, size, isz, left, right, bad, any_bad, counts(2), dims(1)
  logical :: periods(1)
  integer(kind=MPI_ADDRESS_KIND) :: displs(2)
  integer :: sbuf(200), rbuf(200)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  call MPI_Type_size(MPI_INTEGER, isz, ierr)
  dims(1) = size
  periods(1) = .true.
  left = mod(rank + size - 1, size)
  right = mod(rank + 1, size)
#ifdef RING_AS_DIST_GRAPH
  ! MPICH 4.0's use mpi_f08 MPI_NEIGHBOR_ALLTOALLW asks any topology for a distributed graph's
  ! neighbour count, which a Cartesian one fails: the same ring as a distributed graph.
  counts(1) = left
  counts(2) = right
  call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, counts, MPI_UNWEIGHTED, 2, counts, &
       MPI_UNWEIGHTED, MPI_INFO_NULL, .false., ring, ierr)
#else
  call MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, .false., ring, ierr)
#endif
  sbuf = rank
  bad = 0
  call MPI_Neighbor_allgather(sbuf, 100, MPI_INTEGER, rbuf, 100, MPI_INTEGER, ring, ierr)
  if (rbuf(1) /= left .or. rbuf(101) /= right) bad = 1
  counts = 100
  types = MPI_INTEGER
  displs(1) = 0
  displs(2) = 100 * isz
  call MPI_Neighbor_alltoallw(sbuf, counts, displs, types, rbuf, counts, displs, types, ring, &
       ierr)
  call MPI_Ineighbor_alltoall(sbuf, 100, MPI_INTEGER, rbuf, 100, MPI_INTEGER, ring, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  if (rbuf(1) /= left .or. rbuf(101) /= right) bad = 1
  call MPI_Comm_free(ring, ierr)
  call MPI_Allreduce(bad, any_bad, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    write (*, '(a,i0,a,i0,a,i0,a,i0,a)', advance='no') '{"ranks": ', size, &
         ', "bytes": {"MPI_Neighbor_allgather": ', 400 * isz * size, &
         ', "MPI_Neighbor_alltoallw": ', 400 * isz * size, ', "MPI_Ineighbor_alltoall": ', &
         400 * isz * size, '}, '
    write (*, '(a,a,a)') '"calls": {"MPI_Neighbor_allgather": 1, "MPI_Neighbor_alltoallw": ' // &
         '1, "MPI_Ineighbor_alltoall": 1}, "ok": ', &
         trim(merge('true ', 'false', any_bad == 0)), '}'
  end if
  call MPI_Finalize(ierr)
end program neighbor_test
