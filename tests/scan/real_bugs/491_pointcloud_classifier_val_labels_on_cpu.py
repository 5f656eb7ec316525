# source: https://github.com/NVIDIAGameWorks/kaolin/pull/214
# kind: eval_batch_not_moved
# bug: in the point-cloud classification example the training loop moved data and labels to CUDA but the validation loop compared the GPU predictions against the batch labels left on the CPU, so validation crashed on the GPU; the fix moves the validation category labels (and data) to the GPU before use.
# split: test23
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class PointNetLite(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.mlp = nn.Sequential(
            nn.Conv1d(3, 64, 1), nn.ReLU(),
            nn.Conv1d(64, 256, 1), nn.ReLU(),
        )
        self.fc = nn.Linear(256, num_classes)

    def forward(self, pts):
        x = self.mlp(pts.transpose(1, 2))
        return self.fc(x.max(dim=2).values)


def make_loader(n, shuffle):
    pts = torch.rand(n, 1024, 3)
    labels = torch.randint(0, 10, (n, 1))
    return DataLoader(TensorDataset(pts, labels), batch_size=12, shuffle=shuffle)


def main(epochs=3):
    train_loader = make_loader(120, True)
    val_loader = make_loader(48, False)
    model = PointNetLite().cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.CrossEntropyLoss()

    for epoch in range(epochs):
        model.train()
        for pts, cat in train_loader:
            pts, cat = pts.cuda(), cat.cuda()
            optimizer.zero_grad()
            loss = criterion(model(pts), cat.view(-1))
            loss.backward()
            optimizer.step()

        model.eval()
        val_loss, val_accuracy, num_batches = 0.0, 0.0, 0
        with torch.no_grad():
            for batch in val_loader:
                pred = model(batch[0].cuda())
                loss = criterion(pred, batch[1].view(-1).cuda())
                val_loss += loss.item()
                pred_label = torch.argmax(pred, dim=1)
                val_accuracy += torch.mean((pred_label == batch[1].view(-1)).float()).cpu().item()  # bug: eval_batch_not_moved
                num_batches += 1
        print(f"epoch {epoch}: val loss {val_loss / num_batches:.3f} acc {val_accuracy / num_batches:.3f}")


if __name__ == "__main__":
    main()
