# source: https://github.com/facebookresearch/segment-anything/issues/17
# also: https://github.com/facebookresearch/segment-anything/pull/41
# also: https://github.com/facebookresearch/segment-anything/commit/6325eb851263b93dfa7698c154922478dd27902b
# kind: tensor_no_device_in_forward
# bug: the automatic mask generator deduplicated the CUDA mask boxes with `batched_nms(boxes, scores, torch.zeros(len(boxes)), ...)`, whose category tensor was built without a device and so sat on the CPU; torchvision's coordinate-trick path indexes with it and generation on the GPU failed with "indices should be either on cpu or on the same device as the indexed tensor (cpu)"; the fix builds the categories with `torch.zeros_like(boxes[:, 0])` (the PR fixed the same call in the per-crop and whole-image NMS).
# split: test11
import torch
from torchvision.ops import batched_nms


class MaskRecords(dict):
    def filter(self, keep):
        for key, value in self.items():
            self[key] = value[keep]

    def cat(self, other):
        for key, value in other.items():
            self[key] = torch.cat([self[key], value]) if key in self else value


class AutomaticMaskGenerator:
    def __init__(self, predictor, points_per_batch=64, box_nms_thresh=0.7, pred_iou_thresh=0.88):
        self.predictor = predictor
        self.points_per_batch = points_per_batch
        self.box_nms_thresh = box_nms_thresh
        self.pred_iou_thresh = pred_iou_thresh

    @torch.no_grad()
    def _process_points(self, points, image_size):
        masks, iou_preds, _ = self.predictor.predict_torch(points[:, None, :], torch.ones_like(points[:, :1]))
        masks = masks.flatten(0, 1) > 0.0
        iou_preds = iou_preds.flatten(0, 1)
        ys = torch.any(masks, dim=-1).float()
        xs = torch.any(masks, dim=-2).float()
        h, w = image_size
        x0, y0 = xs.argmax(-1), ys.argmax(-1)
        x1, y1 = w - 1 - xs.flip(-1).argmax(-1), h - 1 - ys.flip(-1).argmax(-1)
        boxes = torch.stack([x0, y0, x1, y1], dim=-1)
        keep = iou_preds > self.pred_iou_thresh
        return MaskRecords(masks=masks[keep], iou_preds=iou_preds[keep], boxes=boxes[keep])

    @torch.no_grad()
    def generate(self, image, point_grid):
        self.predictor.set_image(image)
        data = MaskRecords()
        for start in range(0, len(point_grid), self.points_per_batch):
            data.cat(self._process_points(point_grid[start:start + self.points_per_batch], image.shape[:2]))
        keep = batched_nms(
            data["boxes"].float(),
            data["iou_preds"],
            torch.zeros(len(data["boxes"])),  # bug: tensor_no_device_in_forward
            iou_threshold=self.box_nms_thresh,
        )
        data.filter(keep)
        return [{"segmentation": m, "predicted_iou": s.item()} for m, s in zip(data["masks"], data["iou_preds"])]


def run(predictor_factory, image, grid):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    predictor = predictor_factory(device)
    gen = AutomaticMaskGenerator(predictor)
    return gen.generate(image, torch.as_tensor(grid, device=device))
