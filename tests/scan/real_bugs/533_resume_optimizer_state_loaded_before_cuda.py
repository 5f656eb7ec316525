# source: https://github.com/SeanNaren/deepspeech.pytorch/pull/333
# kind: optimizer_before_move
# bug: when continuing training from a checkpoint the script rebuilt the model on the CPU, created the SGD optimizer and loaded its saved state (momentum buffers are cast to the device of the parameters at that moment, i.e. the CPU), and only later moved the model to the GPU, so the first optimizer.step() mixed CPU momentum buffers with CUDA gradients and crashed; the fix moves the model to CUDA before optimizer.load_state_dict.
# split: test25
import argparse

import torch
import torch.nn as nn


class SpeechNet(nn.Module):
    def __init__(self, n_feats=161, hidden=256, n_labels=29):
        super().__init__()
        self.rnn = nn.LSTM(n_feats, hidden, num_layers=2, bidirectional=True)
        self.fc = nn.Linear(2 * hidden, n_labels)

    def forward(self, x):
        out, _ = self.rnn(x)
        return self.fc(out)

    @classmethod
    def load_package(cls, package):
        model = cls(**package["config"])
        model.load_state_dict(package["state_dict"])
        return model


def main(args):
    start_epoch = 0
    if args.continue_from:
        package = torch.load(args.continue_from, map_location=lambda storage, loc: storage)
        model = SpeechNet.load_package(package)
        optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, nesterov=True)
        if not args.finetune:
            optimizer.load_state_dict(package["optim_dict"])  # bug: optimizer_before_move
            start_epoch = int(package.get("epoch", 1))
    else:
        model = SpeechNet()
        optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, nesterov=True)
    criterion = nn.CTCLoss()
    if args.cuda:
        model.cuda()
    for epoch in range(start_epoch, args.epochs):
        feats = torch.randn(50, 8, 161)
        targets = torch.randint(1, 29, (8, 20))
        if args.cuda:
            feats = feats.cuda()
        log_probs = model(feats).log_softmax(-1)
        loss = criterion(log_probs, targets, torch.full((8,), 50, dtype=torch.long), torch.full((8,), 20, dtype=torch.long))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--continue_from", default="")
    p.add_argument("--finetune", action="store_true")
    p.add_argument("--cuda", action="store_true")
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--epochs", type=int, default=2)
    main(p.parse_args())
