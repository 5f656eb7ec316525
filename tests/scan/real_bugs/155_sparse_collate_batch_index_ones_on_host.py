# source: https://github.com/mit-han-lab/torchsparse/pull/54
# also: https://github.com/mit-han-lab/torchsparse/commit/da0abb33fea2522ae8b71cb4ec30a4e461fa58e8
# kind: tensor_no_device_in_forward
# bug: the sparse collate function appended a batch-index column built with torch.ones(num_points, 1) on the CPU and concatenated it with the point coordinates, so torch.cat failed whenever the coordinates were already on the GPU; the fix creates the ones on coord.device.
# split: test5
import numpy as np
import torch


def collate_points(coords, feats, use_float=False):
    coord_batches, feat_batches = [], []
    for batch_id, (coord, feat) in enumerate(zip(coords, feats)):
        if isinstance(coord, np.ndarray):
            coord = torch.from_numpy(coord)
        if isinstance(feat, np.ndarray):
            feat = torch.from_numpy(feat)
        coord = coord.float() if use_float else coord.int()
        n = coord.shape[0]
        column = torch.ones(n, 1)  # bug: tensor_no_device_in_forward
        column = column.float() if use_float else column.int()
        coord_batches.append(torch.cat((coord, column * batch_id), 1))
        feat_batches.append(feat.float())
    return torch.cat(coord_batches, 0), torch.cat(feat_batches, 0)


def train_step(net, optimizer, samples, device):
    coords = [c.to(device) for c, _, _ in samples]
    feats = [f.to(device) for _, f, _ in samples]
    labels = torch.cat([y for _, _, y in samples]).to(device)
    all_coords, all_feats = collate_points(coords, feats)
    loss = torch.nn.functional.cross_entropy(net(all_coords, all_feats), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
