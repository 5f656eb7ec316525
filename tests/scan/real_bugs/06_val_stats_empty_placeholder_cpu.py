# source: https://github.com/ultralytics/yolov5/pull/7539
# also: https://github.com/ultralytics/yolov5/commit/813eba85b266fe46b0ac02a62fce8b25e3eeabac
# kind: cpu_accumulator
# bug: In the validation loop, images with no predictions appended a placeholder built with torch.zeros and no device to a stats list whose other entries were CUDA tensors, breaking the later concatenation; the fix creates the placeholder on the validation device.
# split: test
import torch


def validate(model, batches, device):
    stats = []
    for imgs, targets in batches:
        imgs = imgs.to(device)
        preds = model(imgs)
        for i, det in enumerate(preds):
            truth = targets[targets[:, 0] == i].to(device)
            if det.shape[0] == 0:
                if truth.shape[0]:
                    hit = torch.zeros(0, 10, dtype=torch.bool, device=device)
                    stats.append((hit, *torch.zeros((2, 0))))  # bug: cpu_accumulator
                continue
            hit = torch.ones(det.shape[0], 10, dtype=torch.bool, device=device)
            stats.append((hit, det[:, 4], det[:, 5]))
    columns = [torch.cat(col, 0) for col in zip(*stats)]
    return [c.cpu() for c in columns]
