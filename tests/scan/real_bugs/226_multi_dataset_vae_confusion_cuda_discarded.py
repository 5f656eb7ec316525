# source: https://github.com/scverse/scvi-tools/issues/431
# kind: to_result_discarded
# bug: the joint-VAE (gimVI) trainer's get_discriminator_confusion() converted each dataset's expression matrix with torch.from_numpy and then called `data.cuda()` under `if self.use_cuda:` without assigning it, so the CPU matrix was fed to the encoder and discriminator that the trainer had put on the GPU ("Expected object of backend CUDA but got backend CPU"); the fix assigns `data = data.cuda()`.
# split: test9

import numpy as np
import torch
from torch import nn


class Trainer:
    def __init__(self, model, dataset, use_cuda=True, batch_size=128):
        self.model = model
        self.dataset = dataset
        self.use_cuda = use_cuda and torch.cuda.is_available()
        self.batch_size = batch_size
        if self.use_cuda:
            self.model.cuda()
        self.epoch = 0


class JointVAETrainer(Trainer):
    def __init__(self, model, discriminator, datasets, use_cuda=True, kappa=1.0):
        super().__init__(model, datasets[0], use_cuda=use_cuda)
        self.datasets = datasets
        self.n_dataset = len(datasets)
        self.kappa = kappa
        self.discriminator = discriminator
        if self.use_cuda:
            self.discriminator.cuda()

    def loss_discriminator(self, latent_tensors, predict_true_class=True):
        losses = []
        for i, z in enumerate(latent_tensors):
            cls_logits = nn.LogSoftmax(dim=1)(self.discriminator(z))
            if predict_true_class:
                target = torch.zeros(self.n_dataset, device=z.device)
                target[i] = 1.0
            else:
                target = torch.ones(self.n_dataset, device=z.device) / (self.n_dataset - 1)
                target[i] = 0.0
            losses.append(-(cls_logits * target).sum(dim=1).mean())
        return torch.stack(losses).sum()

    def get_discriminator_confusion(self):
        self.model.eval()
        confusion = []
        for mode, dataset in enumerate(self.datasets):
            indices = np.arange(dataset.n_cells)
            data = torch.from_numpy(dataset.X[indices].astype(np.float32))
            if self.use_cuda:
                data.cuda()  # bug: to_result_discarded
            z = self.model.sample_from_posterior_z(data, mode=mode, deterministic=True)
            cls_z = nn.Softmax(dim=1)(self.discriminator(z)).detach()
            confusion.append(cls_z.cpu().numpy().mean(axis=0))
        return np.array(confusion)


class Discriminator(nn.Module):
    def __init__(self, n_latent, n_classes):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_latent, 32), nn.ReLU(), nn.Linear(32, n_classes))

    def forward(self, z):
        return self.net(z)
