# source: https://github.com/TorchDSP/torchsig/issues/65
# kind: loaded_weights_not_moved
# bug: after training (the trainer hands the module back on the CPU) the example loaded the best checkpoint with a CPU map_location and only called .eval(), while each validation example was sent to CUDA, so inference crashed with "Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor)"; the fix moves the reloaded model to the device before evaluating.
# split: test21
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class IQClassifier(nn.Module):
    def __init__(self, num_classes=53):
        super().__init__()
        self.conv1 = nn.Conv1d(2, 32, 7, padding=3)
        self.conv2 = nn.Conv1d(32, 64, 5, padding=2)
        self.head = nn.Linear(64, num_classes)

    def forward(self, x):
        x = F.relu(self.conv1(x.float()))
        x = F.relu(self.conv2(x))
        return self.head(x.mean(dim=-1))

    def predict(self, x):
        with torch.no_grad():
            return self.forward(x)


def fit(model, loader, epochs, device, ckpt_path):
    model.to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(epochs):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    torch.save({"state_dict": model.state_dict()}, ckpt_path)
    model.cpu()


signals = np.random.randn(256, 2, 1024).astype(np.float32)
labels = np.random.randint(0, 53, 256)
train_loader = DataLoader(TensorDataset(torch.from_numpy(signals), torch.from_numpy(labels)),
                          batch_size=16, shuffle=True, drop_last=True)

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
example_model = IQClassifier()
checkpoint_filename = os.path.join(tempfile.mkdtemp(), "checkpoint.ckpt")
fit(example_model, train_loader, epochs=1, device=device, ckpt_path=checkpoint_filename)

checkpoint = torch.load(checkpoint_filename, map_location=lambda storage, loc: storage)
example_model.load_state_dict(checkpoint["state_dict"])
example_model = example_model.eval()  # bug: loaded_weights_not_moved

num_test_examples = 64
y_preds = np.zeros((num_test_examples,))
y_true = np.zeros((num_test_examples,))
for i in range(num_test_examples):
    data, label = signals[i], labels[i]
    data = torch.from_numpy(np.expand_dims(data, 0)).float()
    data = data.cuda() if torch.cuda.is_available() else data
    pred_tmp = example_model.predict(data)
    pred_tmp = pred_tmp.cpu().numpy() if torch.cuda.is_available() else pred_tmp.numpy()
    y_preds[i] = np.argmax(pred_tmp)
    y_true[i] = label

print("accuracy:", float(np.mean(y_preds == y_true)))
