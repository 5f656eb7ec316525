# Models handed to a function that feeds them GPU tensors, moved first; a criterion handed over (it
# has no weights to move); an optimizer's state loaded.
import sys

import torch
from agent import QNet, Reg

dtype = torch.cuda.FloatTensor


def restore(path):
    net = QNet()
    net.load_state_dict(torch.load(path))
    return net.cuda()


def play(net, criterion, board):
    state = torch.as_tensor(board).type(dtype)
    out = net(state)
    return criterion(out, state)


def resume(path, params):
    opt = torch.optim.Adam(params)
    sched = Sched(opt)
    sched.load_state_dict(torch.load(path))
    return opt


if __name__ == "__main__":
    criterion = Reg(0.1)
    print(play(restore(sys.argv[1]), criterion, [[0.0] * 4]))
