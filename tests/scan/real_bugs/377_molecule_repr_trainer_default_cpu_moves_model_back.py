# source: https://github.com/deepmodeling/Uni-Mol/pull/214
# also: https://github.com/deepmodeling/Uni-Mol/commit/37c6ddc4a3f263b8885cd3fba2faebb5d0bef9f7
# kind: hardcoded_cpu
# bug: the molecular-representation front end picked `cuda:0` and moved its model there, but built its inference `Trainer` without the `cuda` option, whose default of False resolved the trainer's device to the CPU; `inference()` then moved the model and every batch back to the CPU, so representations were never computed on the GPU; the merged fix passes `cuda=self.device` to the trainer.
# split: test17
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class MolDataset(Dataset):
    def __init__(self, feats):
        self.feats = feats

    def __getitem__(self, idx):
        return self.feats[idx]

    def __len__(self):
        return len(self.feats)


class MolEncoder(nn.Module):
    def __init__(self, in_dim=64, dim=512):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, dim), nn.GELU(), nn.Linear(dim, dim))

    def forward(self, x):
        return self.net(x)


class Trainer:
    def __init__(self, task="repr", **params):
        self.task = task
        self.cuda = params.get("cuda", False)
        self.device = torch.device("cuda:0" if torch.cuda.is_available() and self.cuda else "cpu")

    @torch.no_grad()
    def inference(self, model, dataset, batch_size=32):
        model = model.to(self.device)
        model.eval()
        reprs = []
        for batch in DataLoader(dataset, batch_size=batch_size):
            reprs.append(model(batch.to(self.device)).cpu())
        return torch.cat(reprs)


class MolRepr:
    def __init__(self, use_gpu=True):
        self.device = torch.device("cuda:0" if torch.cuda.is_available() and use_gpu else "cpu")
        self.model = MolEncoder().to(self.device)
        self.model.eval()

    def get_repr(self, feats):
        dataset = MolDataset(feats)
        self.trainer = Trainer(task="repr")  # bug: hardcoded_cpu
        return self.trainer.inference(self.model, dataset)


if __name__ == "__main__":
    print(MolRepr().get_repr(torch.randn(1000, 64)).shape)
