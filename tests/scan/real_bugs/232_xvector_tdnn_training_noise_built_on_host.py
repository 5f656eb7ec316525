# source: https://github.com/manojpamk/pytorch_xvectors/pull/3
# also: https://github.com/manojpamk/pytorch_xvectors/commit/09417b51f42f462d46d4428f59ce94e6d21fb6ae
# kind: per_step_host_alloc
# bug: in training mode the x-vector TDNN's forward added Gaussian noise to the frame-level features with `torch.randn(x.size()).cuda()`, so every training step drew a full activation-sized noise tensor on the host and copied it to the GPU; the PR ("make noise matrix at GPU directly to speedup training") draws the noise straight into a CUDA tensor of the same shape.
# split: test10
import torch
import torch.nn as nn
import torch.nn.functional as F


class TDNNLayer(nn.Module):
    def __init__(self, in_dim, out_dim, context, dilation=1):
        super().__init__()
        self.conv = nn.Conv1d(in_dim, out_dim, kernel_size=context, dilation=dilation)

    def forward(self, x):
        return self.conv(x)


class XVectorTDNN(nn.Module):
    def __init__(self, num_classes, feat_dim=30, p_dropout=0.0):
        super().__init__()
        self.tdnn1 = TDNNLayer(feat_dim, 512, 5)
        self.bn1 = nn.BatchNorm1d(512)
        self.tdnn2 = TDNNLayer(512, 512, 3, dilation=2)
        self.bn2 = nn.BatchNorm1d(512)
        self.tdnn3 = TDNNLayer(512, 512, 3, dilation=3)
        self.bn3 = nn.BatchNorm1d(512)
        self.tdnn4 = TDNNLayer(512, 512, 1)
        self.bn4 = nn.BatchNorm1d(512)
        self.tdnn5 = TDNNLayer(512, 1500, 1)
        self.bn5 = nn.BatchNorm1d(1500)
        self.drop = nn.Dropout(p_dropout)
        self.fc1 = nn.Linear(3000, 512)
        self.bn_fc1 = nn.BatchNorm1d(512)
        self.fc2 = nn.Linear(512, 512)
        self.bn_fc2 = nn.BatchNorm1d(512)
        self.fc3 = nn.Linear(512, num_classes)

    def forward(self, x, eps=1e-5):
        x = self.drop(self.bn1(F.relu(self.tdnn1(x))))
        x = self.drop(self.bn2(F.relu(self.tdnn2(x))))
        x = self.drop(self.bn3(F.relu(self.tdnn3(x))))
        x = self.drop(self.bn4(F.relu(self.tdnn4(x))))
        x = self.drop(self.bn5(F.relu(self.tdnn5(x))))
        if self.training:
            x = x + torch.randn(x.size()).cuda() * eps  # bug: per_step_host_alloc
        stats = torch.cat((x.mean(dim=2), x.std(dim=2)), dim=1)
        x = self.drop(self.bn_fc1(F.relu(self.fc1(stats))))
        x = self.drop(self.bn_fc2(F.relu(self.fc2(x))))
        return self.fc3(x)


def train_epoch(model, loader, optimizer):
    model.train()
    for feats, labels in loader:
        feats, labels = feats.cuda(), labels.cuda()
        loss = F.cross_entropy(model(feats), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
