# A model rebuilt and loaded in one function, handed to another that feeds it GPU tensors: the old
# torch.cuda.FloatTensor idiom, behind a test or not, places the inputs; nothing moves the model.
import sys

import torch
from agent import QNet  # a class this file cannot see: load_state_dict() says it is a module

use_cuda = torch.cuda.is_available()
FloatT = torch.cuda.FloatTensor if use_cuda else torch.FloatTensor
dtype = torch.cuda.FloatTensor


def restore(path):
    net = QNet()  # expect: code.model_not_moved
    net.load_state_dict(torch.load(path))
    return net


def play(net, board):
    state = FloatT(board)
    return net(state)


def score(path, boards):
    model = QNet()  # expect: code.model_not_moved
    model.load_state_dict(torch.load(path))
    return model(torch.from_numpy(boards).type(dtype))


if __name__ == "__main__":
    print(play(restore(sys.argv[1]), [[0.0] * 4]))
