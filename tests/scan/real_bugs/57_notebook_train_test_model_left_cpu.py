# source: https://github.com/Atcold/NYU-DLSP20/pull/669
# also: https://github.com/Atcold/NYU-DLSP20/commit/d83987fbbc83336b4b8fcf780af708c046a3c280
# kind: model_not_moved
# bug: the sequence-classification notebook's train-and-test routine moved every data and target batch to the chosen device but never moved the recurrent model, so it failed on CUDA; the fix added model.to(device) at the top of the routine.
# split: test2
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class SeqNet(nn.Module):
    def __init__(self, n_in=8, n_hidden=12, n_out=4):
        super().__init__()
        self.rnn = nn.LSTM(n_in, n_hidden, batch_first=True)
        self.out = nn.Linear(n_hidden, n_out)

    def forward(self, x):
        h, _ = self.rnn(x)
        return self.out(h[:, -1])


def train_and_test(model, train_batches, test_batches, epochs=5):
    opt = torch.optim.RMSprop(model.parameters(), lr=1e-3)
    crit = nn.CrossEntropyLoss()
    for _ in range(epochs):
        model.train()
        for data, target in train_batches:
            data, target = data.to(device), target.to(device)
            loss = crit(model(data), target)  # bug: model_not_moved
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    with torch.no_grad():
        hits = sum((model(d.to(device)).argmax(1) == t.to(device)).sum().item() for d, t in test_batches)
    return hits
