# source: https://github.com/castorini/howl/pull/54
# also: https://github.com/castorini/howl/commit/5b8eca04b35aea68cfc0fccdabaf31335286b097
# kind: cpu_accumulator
# bug: the wake-word training script put the model, the audio transforms and every batch on `torch.device(SETTINGS.training.device)`, but started each epoch's running loss as `torch.Tensor([0.0])` on the CPU and added the CUDA loss into it in place (`total_loss += loss`), so GPU training failed on the accumulation; the fix creates the accumulator with `.to(device)`.
# split: test11
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader


class MelFrontend(nn.Module):
    def __init__(self, n_mels=40):
        super().__init__()
        self.proj = nn.Conv1d(1, n_mels, kernel_size=400, stride=160)

    def forward(self, audio):
        return torch.log1p(F.relu(self.proj(audio.unsqueeze(1))))


class KeywordNet(nn.Module):
    def __init__(self, n_mels=40, n_labels=3):
        super().__init__()
        self.rnn = nn.GRU(n_mels, 128, batch_first=True)
        self.out = nn.Linear(128, n_labels)

    def forward(self, feats):
        h, _ = self.rnn(feats.transpose(1, 2))
        return self.out(h[:, -1])


def train(train_ds, device_name="cuda", epochs=10, lr=1e-3, batch_size=16):
    device = torch.device(device_name if torch.cuda.is_available() else "cpu")
    frontend = MelFrontend().to(device).eval()
    model = KeywordNet().to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    loader = DataLoader(train_ds, batch_size=batch_size, shuffle=True)
    for epoch in range(epochs):
        model.train()
        total_loss = torch.Tensor([0.0])  # bug: cpu_accumulator
        for audio, labels in loader:
            audio, labels = audio.to(device), labels.to(device)
            with torch.no_grad():
                feats = frontend(audio)
            loss = criterion(model(feats), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            with torch.no_grad():
                total_loss += loss
        mean = total_loss / len(loader)
        print(f"epoch {epoch}: loss {mean.item():.4f}")
    return model
