# torch-ddp.py — a data-parallel training loop on the CPU for tests/func/t-parallel-import.sh:
# PyTorch computes, mpi4py averages the gradients (Allreduce), and tprof.torch.profile writes
# each rank's PyTorch trace into the profile directory.  Usage: torch-ddp.py STEPS
import sys

import numpy as np
import torch
from mpi4py import MPI

import tprof.torch

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
torch.manual_seed(rank)
model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
x = torch.randn(32, 64)
y = torch.randint(0, 10, (32,))
with tprof.torch.profile() as prof:
    for step in range(int(sys.argv[1])):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        for p in model.parameters():
            g = p.grad.numpy()
            out = np.empty_like(g)
            comm.Allreduce(g, out)
            p.grad.copy_(torch.from_numpy(out / size))
        opt.step()
        prof.step()
