! mpi-pattern.F90 -- apps/mpi-pattern.c in Fortran, call for call, so that the MPI recording
! checks (tools/checks/mpi-record.py) hold for it unchanged: the same messages (peers, tags,
! bytes), collectives, requests and ground truth line.  Built three times, once per Fortran
! binding: mpif.h (the default), `use mpi` (-DUSE_MPI) and `use mpi_f08` (-DUSE_MPI_F08).
! Types of the same sizes as the C program's: INTEGER for int, DOUBLE PRECISION for double,
! INTEGER*8 for long long and long, CHARACTER for char.
#if defined(USE_MPI_F08)
#define COMM_T type(MPI_Comm)
#define REQ_T type(MPI_Request)
#define STATUS_T type(MPI_Status)
#define STATUSES_T(n) type(MPI_Status) :: n(4)
#define SOURCE_OF(st) st%MPI_SOURCE
#else
#define COMM_T integer
#define REQ_T integer
#define STATUS_T integer, dimension(MPI_STATUS_SIZE)
#define STATUSES_T(n) integer :: n(MPI_STATUS_SIZE, 4)
#define SOURCE_OF(st) st(MPI_SOURCE)
#endif

module pattern
#if defined(USE_MPI_F08)
  use mpi_f08
#elif defined(USE_MPI)
  use mpi
#endif
  implicit none
#if !defined(USE_MPI_F08) && !defined(USE_MPI)
  include 'mpif.h'
#endif
  integer, parameter :: persistent_rounds = 3
  integer(kind=8) :: sent = 0
  integer :: world_colls = 0, split_colls = 0

contains

  subroutine check(rc, what)
    integer, intent(in) :: rc
    character(len=*), intent(in) :: what
    integer :: ierr
    if (rc /= MPI_SUCCESS) then
      write (0, '(a,a,a,i0,a)') 'mpi-pattern: ', what, ' failed (', rc, ')'
      call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
  end subroutine

  ! Ring: 4 integers (16 bytes), tag 1, to the right; rank 0 sends first.
  subroutine ring(rank, n)
    integer, intent(in) :: rank, n
    integer :: outb(4), inb(4), right, left, ierr
    outb = rank
    right = mod(rank + 1, n)
    left = mod(rank + n - 1, n)
    if (rank == 0) then
      call MPI_Send(outb, 4, MPI_INTEGER, right, 1, MPI_COMM_WORLD, ierr)
      call check(ierr, 'ring send')
      call MPI_Recv(inb, 4, MPI_INTEGER, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      call check(ierr, 'ring recv')
    else
      call MPI_Recv(inb, 4, MPI_INTEGER, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      call check(ierr, 'ring recv')
      call MPI_Send(outb, 4, MPI_INTEGER, right, 1, MPI_COMM_WORLD, ierr)
      call check(ierr, 'ring send')
    end if
    sent = sent + 1
  end subroutine

  ! Neighbours: 8 doubles (64 bytes) with tag 10 to the right and tag 11 to the left.
  subroutine neighbours(rank, n)
    integer, intent(in) :: rank, n
    double precision :: to_r(8), to_l(8), from_l(8), from_r(8)
    integer :: right, left, i, ierr
    REQ_T :: req(4)
    STATUSES_T(st)
    do i = 1, 8
      to_r(i) = rank + i - 1
      to_l(i) = rank + i - 1
    end do
    right = mod(rank + 1, n)
    left = mod(rank + n - 1, n)
    call MPI_Irecv(from_l, 8, MPI_DOUBLE_PRECISION, left, 10, MPI_COMM_WORLD, req(1), ierr)
    call check(ierr, 'irecv')
    call MPI_Irecv(from_r, 8, MPI_DOUBLE_PRECISION, right, 11, MPI_COMM_WORLD, req(2), ierr)
    call check(ierr, 'irecv')
    call MPI_Isend(to_r, 8, MPI_DOUBLE_PRECISION, right, 10, MPI_COMM_WORLD, req(3), ierr)
    call check(ierr, 'isend')
    call MPI_Isend(to_l, 8, MPI_DOUBLE_PRECISION, left, 11, MPI_COMM_WORLD, req(4), ierr)
    call check(ierr, 'isend')
    call MPI_Waitall(4, req, st, ierr)
    call check(ierr, 'waitall')
    sent = sent + 2
  end subroutine

  ! To rank 0: 3 integers (12 bytes) with tag 20 + rank.  Rank 0 takes them all with
  ! MPI_ANY_SOURCE: the first (n-1)/2 with MPI_ANY_TAG, then each with the tag of the lowest
  ! rank not heard from yet.
  subroutine gather_any(rank, n)
    integer, intent(in) :: rank, n
    integer :: buf(3), k, j, tag, ierr
    logical :: got(0:n - 1)
    STATUS_T :: st
    buf = rank
    if (rank /= 0) then
      call MPI_Send(buf, 3, MPI_INTEGER, 0, 20 + rank, MPI_COMM_WORLD, ierr)
      call check(ierr, 'send to 0')
      sent = sent + 1
      return
    end if
    got = .false.
    do k = 0, n - 2
      tag = MPI_ANY_TAG
      if (k >= (n - 1) / 2) then
        do j = 1, n - 1
          if (.not. got(j)) then
            tag = 20 + j
            exit
          end if
        end do
      end if
      call MPI_Recv(buf, 3, MPI_INTEGER, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, st, ierr)
      call check(ierr, 'recv any')
      got(SOURCE_OF(st)) = .true.
    end do
  end subroutine

  ! Sendrecv: 2 eight-byte integers (16 bytes) right with tag 30, from the left.
  subroutine shift(rank, n)
    integer, intent(in) :: rank, n
    integer(kind=8) :: outb(2), inb(2)
    integer :: right, left, ierr
    outb = rank
    right = mod(rank + 1, n)
    left = mod(rank + n - 1, n)
    call MPI_Sendrecv(outb, 2, MPI_INTEGER8, right, 30, inb, 2, MPI_INTEGER8, left, 30, &
                      MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    call check(ierr, 'sendrecv')
    sent = sent + 1
  end subroutine

  ! Rank 1 sends 7 characters with tag 40; rank 0 probes, sizes and receives it.
  subroutine probe(rank)
    integer, intent(in) :: rank
    character(len=7) :: buf
    integer :: count, ierr
    STATUS_T :: st
    buf = 'probed'
    if (rank == 1) then
      call MPI_Send(buf, 7, MPI_CHARACTER, 0, 40, MPI_COMM_WORLD, ierr)
      call check(ierr, 'probe send')
      sent = sent + 1
    else if (rank == 0) then
      call MPI_Probe(MPI_ANY_SOURCE, 40, MPI_COMM_WORLD, st, ierr)
      call check(ierr, 'probe')
      call MPI_Get_count(st, MPI_CHARACTER, count, ierr)
      call MPI_Recv(buf, count, MPI_CHARACTER, SOURCE_OF(st), 40, MPI_COMM_WORLD, st, ierr)
      call check(ierr, 'probe recv')
    end if
  end subroutine

  ! Other completions: one integer (4 bytes) with tags 60 and 61 to the right, the receives
  ! completed by MPI_Waitany then MPI_Waitsome (statuses ignored), the sends by MPI_Testall.
  subroutine completions(rank, n)
    integer, intent(in) :: rank, n
    integer :: inb(2), outb(2), right, left, idx, outcount, indices(2), ierr
    logical :: flag
    REQ_T :: r(2), s(2)
    outb = rank
    right = mod(rank + 1, n)
    left = mod(rank + n - 1, n)
    flag = .false.
    call MPI_Irecv(inb(1), 1, MPI_INTEGER, left, 60, MPI_COMM_WORLD, r(1), ierr)
    call check(ierr, 'irecv')
    call MPI_Irecv(inb(2), 1, MPI_INTEGER, left, 61, MPI_COMM_WORLD, r(2), ierr)
    call check(ierr, 'irecv')
    call MPI_Isend(outb(1), 1, MPI_INTEGER, right, 60, MPI_COMM_WORLD, s(1), ierr)
    call check(ierr, 'isend')
    call MPI_Isend(outb(2), 1, MPI_INTEGER, right, 61, MPI_COMM_WORLD, s(2), ierr)
    call check(ierr, 'isend')
    call MPI_Waitany(2, r, idx, MPI_STATUS_IGNORE, ierr)
    call check(ierr, 'waitany')
    call MPI_Waitsome(2, r, outcount, indices, MPI_STATUSES_IGNORE, ierr)
    call check(ierr, 'waitsome')
    do while (.not. flag)
      call MPI_Testall(2, s, flag, MPI_STATUSES_IGNORE, ierr)
      call check(ierr, 'testall')
    end do
    sent = sent + 2
  end subroutine

  ! Rank 0 posts a receive from rank 1 with tag 99, which nobody sends, and cancels it.
  subroutine cancelled(rank)
    integer, intent(in) :: rank
    integer :: buf, ierr
    logical :: flag, was
    REQ_T :: r
    STATUS_T :: st
    if (rank /= 0) return
    flag = .false.
    call MPI_Irecv(buf, 1, MPI_INTEGER, 1, 99, MPI_COMM_WORLD, r, ierr)
    call check(ierr, 'irecv')
    call MPI_Cancel(r, ierr)
    call check(ierr, 'cancel')
    do while (.not. flag)
      call MPI_Test(r, flag, st, ierr)
      call check(ierr, 'test')
    end do
    call MPI_Test_cancelled(st, was, ierr)
    if (.not. was) then
      write (0, '(a)') 'mpi-pattern: the receive was not cancelled'
      call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
  end subroutine

  ! Bcast of 5 integers from rank 0, Allreduce of 2 doubles, Barrier.
  subroutine collectives(comm, count)
    COMM_T, intent(in) :: comm
    integer, intent(inout) :: count
    integer :: b(5), ierr
    double precision :: x(2), y(2)
    b = (/ 1, 2, 3, 4, 5 /)
    x = (/ 1d0, 2d0 /)
    call MPI_Bcast(b, 5, MPI_INTEGER, 0, comm, ierr)
    call check(ierr, 'bcast')
    call MPI_Allreduce(x, y, 2, MPI_DOUBLE_PRECISION, MPI_SUM, comm, ierr)
    call check(ierr, 'allreduce')
    call MPI_Barrier(comm, ierr)
    call check(ierr, 'barrier')
    count = count + 3
  end subroutine

  ! Iallreduce of 4 integers completed by MPI_Wait.
  subroutine nonblocking_collective()
    integer :: x(4), y(4), ierr
    REQ_T :: req
    x = 1
    call MPI_Iallreduce(x, y, 4, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req, ierr)
    call check(ierr, 'iallreduce')
    call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
    call check(ierr, 'wait')
    world_colls = world_colls + 1
  end subroutine

  ! Rank 0 sends 6 integers (24 bytes) to rank 1 with tag 50, persistently, three times.
  subroutine persistent(rank)
    integer, intent(in) :: rank
    integer :: buf(6), i, ierr
    REQ_T :: req
    buf = 0
    if (rank > 1) return
    if (rank == 0) then
      call MPI_Send_init(buf, 6, MPI_INTEGER, 1, 50, MPI_COMM_WORLD, req, ierr)
      call check(ierr, 'send_init')
    else
      call MPI_Recv_init(buf, 6, MPI_INTEGER, 0, 50, MPI_COMM_WORLD, req, ierr)
      call check(ierr, 'recv_init')
    end if
    do i = 1, persistent_rounds
      call MPI_Start(req, ierr)
      call check(ierr, 'start')
      call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
      call check(ierr, 'wait')
      if (rank == 0) sent = sent + 1
    end do
    call MPI_Request_free(req, ierr)
    call check(ierr, 'request_free')
  end subroutine

end module

program mpi_pattern
  use pattern
  implicit none
  integer :: rank, n, ierr
  integer(kind=8) :: total
  COMM_T :: half
  character(len=120) :: line
  call MPI_Init(ierr)
  call check(ierr, 'init')
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  if (n < 2) then
    if (rank == 0) write (0, '(a)') 'mpi-pattern: needs at least 2 ranks'
    call MPI_Finalize(ierr)
    stop 2
  end if
  call ring(rank, n)
  call neighbours(rank, n)
  call completions(rank, n)
  call cancelled(rank)
  call gather_any(rank, n)
  call shift(rank, n)
  call probe(rank)
  call collectives(MPI_COMM_WORLD, world_colls)
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, half, ierr)
  call check(ierr, 'split')
  call collectives(half, split_colls)
  call nonblocking_collective()
  call persistent(rank)
  call MPI_Comm_free(half, ierr)
  call check(ierr, 'comm_free')
  total = 0
  call MPI_Reduce(sent, total, 1, MPI_INTEGER8, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  call check(ierr, 'reduce')
  world_colls = world_colls + 1
  if (rank == 0) then
    write (line, '(a,i0,a,i0,a,i0,a,i0,a)') '{"messages": ', total, &
      ', "collectives": {"world": ', world_colls, ', "split": ', split_colls, &
      '}, "ranks": ', n, '}'
    write (*, '(a)') trim(line)
  end if
  call MPI_Finalize(ierr)
end program
