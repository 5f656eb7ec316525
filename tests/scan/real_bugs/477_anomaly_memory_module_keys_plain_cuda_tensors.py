# source: https://github.com/SimonThomine/RememberingNormality/issues/7
# kind: attribute_not_buffer
# bug: the normality memory module stored its key and value banks as plain tensors created with torch.randn(...).to('cuda') in __init__, so they were neither registered parameters nor buffers: they were never trained, never saved in the state dict and never followed the module to another device; the maintainer confirmed the report and committed a fix.
# split: test22
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor


class MemoryModule(nn.Module):
    def __init__(self, L=50, channel=128):
        super().__init__()
        self.keys = torch.randn(L, channel).to("cuda")  # bug: attribute_not_buffer
        self.values = torch.randn(L, channel).to("cuda")
        self.softmax = nn.Softmax(dim=1)
        self.channel = channel

    def forward(self, x: Tensor, normality: bool = False) -> Tensor:
        b, c, h, w = x.size()
        x = x.view(b, c, -1).permute(0, 2, 1)
        values = self.values.unsqueeze(0).expand(b, -1, -1)
        bank = values if normality else self.keys.unsqueeze(0).expand(b, -1, -1)
        cos = torch.matmul(F.normalize(bank, p=2, dim=2).unsqueeze(2),
                           F.normalize(x, p=2, dim=2).transpose(1, 2).unsqueeze(1)).squeeze(2)
        sim = self.softmax(cos)
        out = torch.matmul(sim.permute(0, 2, 1), values)
        return out.permute(0, 2, 1).reshape(b, self.channel, h, w)


class StudentDecoder(nn.Module):
    def __init__(self, embed_dim=50):
        super().__init__()
        self.up2 = nn.ConvTranspose2d(512, 256, 2, stride=2)
        self.up1 = nn.ConvTranspose2d(256, 128, 2, stride=2)
        self.memory2 = MemoryModule(L=embed_dim, channel=512)
        self.memory1 = MemoryModule(L=embed_dim, channel=256)
        self.memory0 = MemoryModule(L=embed_dim, channel=128)

    def forward(self, feat):
        f2 = feat + self.memory2(feat)
        f1 = self.up2(f2)
        f1 = f1 + self.memory1(f1)
        f0 = self.up1(f1)
        return [f0 + self.memory0(f0), f1, f2]


def cosine_distill_loss(teacher_feats, student_feats):
    return sum((1 - F.cosine_similarity(t.flatten(1), s.flatten(1))).mean() for t, s in zip(teacher_feats, student_feats))


class NetTrainer:
    def __init__(self, device="cuda", lr=5e-3):
        self.device = torch.device(device)
        self.teacher = nn.ModuleList([nn.Conv2d(3, 128, 3, 4, 1), nn.Conv2d(128, 256, 3, 2, 1), nn.Conv2d(256, 512, 3, 2, 1)]).to(self.device).eval()
        self.student = StudentDecoder().to(self.device)
        self.optimizer = torch.optim.Adam(self.student.parameters(), lr=lr, betas=(0.5, 0.999))

    def teacher_feats(self, img):
        feats, x = [], img
        for conv in self.teacher:
            x = F.relu(conv(x))
            feats.append(x)
        return feats

    def train_step(self, img):
        with torch.no_grad():
            t0, t1, t2 = self.teacher_feats(img.to(self.device))
        s = self.student(t2)
        loss = cosine_distill_loss([t0, t1, t2], s)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def save(self, path):
        torch.save(self.student.state_dict(), path)


if __name__ == "__main__":
    trainer = NetTrainer()
    for _ in range(3):
        trainer.train_step(torch.rand(4, 3, 256, 256))
    trainer.save("student.pth")
