# source: https://github.com/woven-by-toyota/l5kit/pull/346
# kind: eval_batch_not_moved
# bug: (notebook) the open-loop planning evaluation loaded the trained planning model onto `device` (CUDA when available) and, for a sample of evaluation frames, built each batch with `default_collate([data])` and passed it straight to the model, so the CUDA model received the collated CPU tensors; the merged fix sends every tensor of `data_batch` to `device` before the forward pass.
# split: test11
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.dataloader import default_collate


class FrameDataset(Dataset):
    def __init__(self, n=2000, raster=112, future=12):
        self.n, self.raster, self.future = n, raster, future

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        rng = np.random.default_rng(i)
        return {
            "image": torch.from_numpy(rng.standard_normal((5, self.raster, self.raster)).astype(np.float32)),
            "target_positions": torch.from_numpy(rng.standard_normal((self.future, 2)).astype(np.float32)),
            "target_availabilities": torch.ones(self.future),
        }


class RasterPlanner(nn.Module):
    def __init__(self, future=12):
        super().__init__()
        self.future = future
        self.backbone = nn.Sequential(nn.Conv2d(5, 32, 5, stride=4), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Linear(32, future * 2)

    def forward(self, data_batch):
        out = self.head(self.backbone(data_batch["image"]))
        pred = out.view(-1, self.future, 2)
        err = ((pred - data_batch["target_positions"]) ** 2).sum(-1) * data_batch["target_availabilities"]
        return {"positions": pred, "loss": err.mean()}


device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
model = RasterPlanner().to(device)
model.load_state_dict(torch.load("planning_model.pt", map_location=device))
model.eval()

eval_dataset = FrameDataset()
eval_dataloader = DataLoader(eval_dataset, batch_size=32, shuffle=False)

errors = []
with torch.no_grad():
    for frame_number in range(0, len(eval_dataset), len(eval_dataset) // 20):
        data = eval_dataloader.dataset[frame_number]
        data_batch = default_collate([data])
        result = model(data_batch)  # bug: eval_batch_not_moved
        errors.append(result["loss"].item())
print("mean displacement error:", float(np.mean(errors)))
