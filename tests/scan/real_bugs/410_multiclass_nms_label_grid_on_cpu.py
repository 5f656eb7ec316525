# source: https://github.com/open-mmlab/mmdetection/pull/5673
# kind: tensor_no_device_in_forward
# bug: the multi-class NMS post-processing helper built the per-box class-label grid with torch.arange(num_classes, dtype=torch.long) on the CPU and then indexed it with a mask/indices derived from CUDA scores, so detection inference on the GPU broke; the fix creates the labels on scores.device.
# split: test19
import torch
import torch.nn as nn
from torchvision.ops import batched_nms


def multiclass_nms(multi_bboxes, multi_scores, score_thr=0.05, iou_thr=0.5, max_num=100):
    num_classes = multi_scores.size(1) - 1
    bboxes = multi_bboxes[:, None].expand(multi_scores.size(0), num_classes, 4)
    scores = multi_scores[:, :-1]
    labels = torch.arange(num_classes, dtype=torch.long)  # bug: tensor_no_device_in_forward
    labels = labels.view(1, -1).expand_as(scores)
    bboxes = bboxes.reshape(-1, 4)
    scores = scores.reshape(-1)
    labels = labels.reshape(-1)
    inds = (scores > score_thr).nonzero(as_tuple=False).squeeze(1)
    bboxes, scores, labels = bboxes[inds], scores[inds], labels[inds]
    keep = batched_nms(bboxes, scores, labels, iou_thr)[:max_num]
    return torch.cat([bboxes[keep], scores[keep, None]], dim=1), labels[keep]


class BoxHead(nn.Module):
    def __init__(self, in_ch=256, num_classes=20):
        super().__init__()
        self.cls = nn.Linear(in_ch, num_classes + 1)
        self.reg = nn.Linear(in_ch, 4)

    def forward(self, roi_feats):
        return self.cls(roi_feats), self.reg(roi_feats)

    @torch.no_grad()
    def get_bboxes(self, roi_feats, rois):
        cls_score, deltas = self.forward(roi_feats)
        boxes = rois + deltas
        return multiclass_nms(boxes, cls_score.softmax(-1))


if __name__ == "__main__":
    head = BoxHead().cuda()
    rois = torch.rand(500, 4, device="cuda") * 200
    rois[:, 2:] += rois[:, :2]
    dets, labels = head.get_bboxes(torch.randn(500, 256, device="cuda"), rois)
    print(dets.shape, labels.shape)
