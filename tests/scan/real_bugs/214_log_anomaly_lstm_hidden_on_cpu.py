# source: https://github.com/aaron-y-chen/deeplog/pull/6
# kind: tensor_no_device_in_forward
# bug: the log-key LSTM's forward built its initial hidden and cell states with torch.zeros(...) on the CPU while the training loop put the model and the windows on CUDA, so the LSTM raised "Input and hidden tensors are not at the same device, found input tensor at cuda:0 and hidden tensor at cpu"; the fix creates the states on `input.device`.
# split: test9
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from logdata import SessionWindows


class LogKeyModel(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers, num_keys):
        super().__init__()
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True)
        self.fc = nn.Linear(hidden_size, num_keys)

    def forward(self, x):
        shape = (self.num_layers, x.size(0), self.hidden_size)
        state = (torch.zeros(shape), torch.zeros(shape))  # bug: tensor_no_device_in_forward
        out, _ = self.lstm(x, state)
        return self.fc(out[:, -1, :])


def train(args):
    use_cuda = args.num_gpus > 0 and torch.cuda.is_available()
    device = torch.device("cuda" if use_cuda else "cpu")
    model = LogKeyModel(1, args.hidden_size, args.num_layers, args.num_keys).to(device)
    loader = DataLoader(SessionWindows(args.data, args.window_size), batch_size=args.batch_size, shuffle=True)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        for seq, label in loader:
            seq = seq.view(-1, args.window_size, 1).to(device)
            loss = loss_fn(model(seq), label.to(device))
            opt.zero_grad()
            loss.backward()
            opt.step()
    torch.save(model.state_dict(), args.out)


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--data", required=True)
    p.add_argument("--num-gpus", dest="num_gpus", type=int, default=1)
    p.add_argument("--window-size", dest="window_size", type=int, default=10)
    p.add_argument("--hidden-size", dest="hidden_size", type=int, default=64)
    p.add_argument("--num-layers", dest="num_layers", type=int, default=2)
    p.add_argument("--num-keys", dest="num_keys", type=int, default=28)
    p.add_argument("--batch-size", dest="batch_size", type=int, default=2048)
    p.add_argument("--epochs", type=int, default=300)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--out", default="model.pt")
    train(p.parse_args())
