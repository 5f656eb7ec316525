# source: https://github.com/jaybutera/tetrisRL/pull/3
# also: https://github.com/jaybutera/tetrisRL/commit/6b3cf11f4e8e598841a5ce88d7b70e78ee21e87a
# kind: loaded_weights_not_moved
# bug: the play script rebuilt the Q-network and loaded the saved state dict but never called .cuda(), while the board states were cuda.FloatTensors; the fix moved the model when CUDA was available.
# split: dev2
import sys

import torch

from agent import QNet
from game import Board

use_cuda = torch.cuda.is_available()
FloatT = torch.cuda.FloatTensor if use_cuda else torch.FloatTensor


def restore(path):
    net = QNet()  # bug: loaded_weights_not_moved
    ckpt = torch.load(path)
    net.load_state_dict(ckpt["state_dict"])
    return net


def play(net, board):
    state = FloatT(board.reset()[None, None, :, :])
    done, total = False, 0
    while not done:
        with torch.no_grad():
            move = net(state).max(1)[1].item()
        obs, reward, done = board.step(move)
        state = FloatT(obs[None, None, :, :])
        total += reward
    return total


if __name__ == "__main__":
    print(play(restore(sys.argv[1]), Board(10, 20)))
