# source: https://github.com/venomouscyanide/S3GRL/pull/60
# also: https://github.com/venomouscyanide/S3GRL/commit/303e36cc6b29a31f1baa730a743221fa1d003eff
# kind: hardcoded_cpu
# bug: the link-prediction project ran its own models on `cuda:0` when available, but the run helpers for the baselines (matrix factorisation, message-passing GNNs, node2vec) called their training functions with a literal `device='cpu'`, so every baseline trained and evaluated on the CPU even on a GPU machine; the fix picks `torch.device('cuda:0' if torch.cuda.is_available() else 'cpu')` in each helper and passes it on.
# split: test11
import argparse

import numpy as np
import torch
from torch import nn


class BaselineArgs:
    def __init__(self, dataset, runs=1):
        self.dataset = dataset
        self.runs = runs
        self.hidden_channels = 32
        self.num_layers = 3
        self.dropout = 0.5
        self.lr = 0.01
        self.epochs = 50
        self.batch_size = 32


class PairMLP(nn.Module):
    def __init__(self, num_nodes, hidden, num_layers, dropout):
        super().__init__()
        self.emb = nn.Embedding(num_nodes, hidden)
        layers = []
        for _ in range(num_layers - 1):
            layers += [nn.Linear(hidden, hidden), nn.ReLU(), nn.Dropout(dropout)]
        layers.append(nn.Linear(hidden, 1))
        self.head = nn.Sequential(*layers)

    def forward(self, src, dst):
        return self.head(self.emb(src) * self.emb(dst)).squeeze(-1)


def load_edges(args, num_nodes=1000, num_edges=5000):
    g = torch.Generator().manual_seed(0)
    pos = torch.randint(0, num_nodes, (2, num_edges), generator=g)
    neg = torch.randint(0, num_nodes, (2, num_edges), generator=g)
    return num_nodes, pos, neg


def train_mf(num_nodes, pos, neg, device, args, seed):
    torch.manual_seed(seed)
    model = PairMLP(num_nodes, args.hidden_channels, args.num_layers, args.dropout).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    edges = torch.cat([pos, neg], dim=1).to(device)
    labels = torch.cat([torch.ones(pos.size(1)), torch.zeros(neg.size(1))]).to(device)
    for _ in range(args.epochs):
        perm = torch.randperm(edges.size(1), device=device)
        for start in range(0, edges.size(1), args.batch_size):
            idx = perm[start:start + args.batch_size]
            logits = model(edges[0, idx], edges[1, idx])
            loss = nn.functional.binary_cross_entropy_with_logits(logits, labels[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        acc = ((model(edges[0], edges[1]) > 0).float() == labels).float().mean().item()
    return 100 * acc


def run_main_model(args):
    device = torch.device('cuda:0' if torch.cuda.is_available() else 'cpu')
    num_nodes, pos, neg = load_edges(args)
    return train_mf(num_nodes, pos, neg, device, args, seed=0)


def run_mf_baseline(dataset, runs):
    accs = []
    for run in range(1, runs + 1):
        args = BaselineArgs(dataset, runs)
        num_nodes, pos, neg = load_edges(args)
        accs.append(train_mf(num_nodes, pos, neg, device='cpu', args=args, seed=run))  # bug: hardcoded_cpu
    arr = np.array(accs)
    print(f'Final average test of {runs} runs: {arr.mean():.2f} +/- {arr.std():.2f}')


if __name__ == '__main__':
    parser = argparse.ArgumentParser()
    parser.add_argument('--dataset', type=str, required=True)
    parser.add_argument('--runs', type=int, default=3)
    cli = parser.parse_args()
    run_mf_baseline(cli.dataset, cli.runs)
