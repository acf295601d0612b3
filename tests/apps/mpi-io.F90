! mpi-io.F90 — MPI-IO from Fortran, for the tests of how its calls are recorded
! (func/t-mpi-io.sh): every rank of WORLD opens the file named by the first argument and writes
! its block of 1024 default integers collectively at an explicit offset
! (MPI_FILE_WRITE_AT_ALL), reads half of it back nonblocking (MPI_FILE_IREAD_AT, MPI_WAIT),
! seeks to it and reads 100 integers (MPI_FILE_READ); rank 0 deletes the file and prints what
! every rank did as one JSON line, as apps/mpi-io.c does.  Built with `use mpi`, or with
! `use mpi_f08` (-DUSE_MPI_F08).
program io_test
#ifdef USE_MPI_F08
  use mpi_f08
  implicit none
  type(MPI_File) :: fh
  type(MPI_Status) :: st
  type(MPI_Request) :: req
#else
  use mpi
  implicit none
  integer :: fh, st(MPI_STATUS_SIZE), req
#endif
  integer :: ierr, rank, size, n, isz, i
  integer(kind=MPI_OFFSET_KIND) :: off
  integer :: buf(1024), back(1024)
  character(len=4096) :: path

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  call get_command_argument(1, path)
  call MPI_Type_size(MPI_INTEGER, isz, ierr)
  do i = 1, 1024
    buf(i) = rank * 10000 + i
  end do
  call MPI_File_open(MPI_COMM_WORLD, trim(path), MPI_MODE_CREATE + MPI_MODE_RDWR, &
       MPI_INFO_NULL, fh, ierr)
  off = int(rank, MPI_OFFSET_KIND) * 1024 * isz
  call MPI_File_write_at_all(fh, off, buf, 1024, MPI_INTEGER, st, ierr)
  call MPI_File_iread_at(fh, off, back, 512, MPI_INTEGER, req, ierr)
  call MPI_Wait(req, st, ierr)
  call MPI_Get_count(st, MPI_BYTE, n, ierr)
  call MPI_File_seek(fh, off, MPI_SEEK_SET, ierr)
  call MPI_File_read(fh, back, 100, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
  call MPI_File_close(fh, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    call MPI_File_delete(trim(path), MPI_INFO_NULL, ierr)
    write (*, '(a,i0,a,a,a,i0,a,i0,a,a,a)') '{"ranks": ', size, ', "files": {"', trim(path), &
         '": {"opens": 1, "writes": 1, "write_bytes": ', 1024 * isz, &
         ', "reads": 2, "read_bytes": ', 612 * isz, '}}, "ok": ', &
         trim(merge('true ', 'false', n == 512 * isz .and. all(back(1:100) == buf(1:100)))), '}'
  end if
  call MPI_Finalize(ierr)
end program io_test
