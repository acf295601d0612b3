! mpi-rma.F90 — one-sided communication from Fortran, for func/t-mpi-rma.sh: every rank of
! WORLD exposes an array of 1024 default integers (MPI_WIN_CREATE) and, towards its right
! neighbour: in a fence epoch puts 256 integers and gets 128 from its left neighbour; in an
! exclusive lock epoch accumulates 64; in a lock_all epoch puts 32 with MPI_RPUT (MPI_WAIT).
! It checks what its left neighbour put, frees the window, and rank 0 prints what every rank
! did as one JSON line, as apps/mpi-rma.c does (each transfer complete at its target at the
! fence, the unlock or the unlock_all that ended its epoch).  Built with `use mpi`, or with `use mpi_f08`
! (-DUSE_MPI_F08).
program rma_test
#ifdef USE_MPI_F08
  use mpi_f08
  implicit none
  type(MPI_Win) :: win
  type(MPI_Request) :: req
#else
  use mpi
  implicit none
  integer :: win, req
#endif
  integer :: ierr, rank, size, right, left, isz, i, bad, any_bad
  integer(kind=MPI_ADDRESS_KIND) :: wsize, disp
  integer :: win_buf(1024), out(256), got(128), ones(64)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  call MPI_Type_size(MPI_INTEGER, isz, ierr)
  right = mod(rank + 1, size)
  left = mod(rank + size - 1, size)
  do i = 1, 1024
    win_buf(i) = 0
  end do
  do i = 1, 256
    out(i) = rank * 1000 + i
  end do
  ones = 1
  wsize = 1024 * isz
  call MPI_Win_create(win_buf, wsize, isz, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  disp = 0
  call MPI_Put(out, 256, MPI_INTEGER, right, disp, 256, MPI_INTEGER, win, ierr)
  disp = 512
  call MPI_Get(got, 128, MPI_INTEGER, left, disp, 128, MPI_INTEGER, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  bad = 0
  do i = 1, 256
    if (win_buf(i) /= left * 1000 + i) bad = 1
  end do
  call MPI_Win_fence(MPI_MODE_NOSUCCEED, win, ierr)
  call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win, ierr)
  disp = 600
  call MPI_Accumulate(ones, 64, MPI_INTEGER, right, disp, 64, MPI_INTEGER, MPI_SUM, win, ierr)
  call MPI_Win_unlock(right, win, ierr)
  call MPI_Win_lock_all(0, win, ierr)
  disp = 700
  call MPI_Rput(out, 32, MPI_INTEGER, right, disp, 32, MPI_INTEGER, win, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call MPI_Win_unlock_all(win, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  do i = 601, 664
    if (win_buf(i) /= 1) bad = 1
  end do
  call MPI_Win_free(win, ierr)
  call MPI_Allreduce(bad, any_bad, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    write (*, '(a,i0,a)', advance='no') '{"ranks": ', size, ', "window": "window 1 of ' // &
         'MPI_COMM_WORLD", "per_rank": {"fences": 3, "locks": 2, "access_epochs": 0, '
    write (*, '(a,i0,a,i0,a,i0,a)', advance='no') '"puts": 2, "put_bytes": ', 288 * isz, &
         ', "gets": 1, "get_bytes": ', 128 * isz, ', "atomics": 1, "atomic_bytes": ', &
         64 * isz, ', "linked": 4, "rputs": 1, "target_locks": 1}, '
    write (*, '(a)', advance='no') '"ends": {"MPI_Win_fence": 2, "MPI_Win_unlock": 1, ' // &
         '"MPI_Win_unlock_all": 1}, '
    write (*, '(a,i0,a,i0,a,i0,a,a,a)') '"linked_bytes": {"put": ', 288 * isz, ', "get": ', &
         128 * isz, ', "atomic": ', 64 * isz, '}, "ok": ', &
         trim(merge('true ', 'false', any_bad == 0)), '}'
  end if
  call MPI_Finalize(ierr)
end program rma_test
