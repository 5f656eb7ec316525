# source: https://github.com/jacobgil/pytorch-grad-cam/pull/546
# also: https://github.com/jacobgil/pytorch-grad-cam/commit/5cef718116a831c3381fd3f7b48e5690144ff054
# kind: other
# bug: the semantic-segmentation CAM target converted the user's numpy mask in __init__ and moved it to CUDA (or MPS) whenever such a device was available, whatever device the model actually ran on, so explaining a model kept on the CPU (or on another accelerator) multiplied its output by a mask on the wrong device and raised a RuntimeError (issue #545); the fix keeps the mask where it was made and moves it to model_output.device inside __call__.
# split: test10
import numpy as np
import torch


class SemanticSegmentationTarget:
    def __init__(self, category, mask):
        self.category = category
        self.mask = torch.from_numpy(mask)
        if torch.cuda.is_available():
            self.mask = self.mask.cuda()  # bug: other
        if torch.backends.mps.is_available():
            self.mask = self.mask.to("mps")

    def __call__(self, model_output):
        return (model_output[self.category, :, :] * self.mask).sum()


class SimpleGradCAM:
    def __init__(self, model, target_layer):
        self.model = model.eval()
        self.acts = None
        self.grads = None
        target_layer.register_forward_hook(self._save_act)
        target_layer.register_full_backward_hook(self._save_grad)

    def _save_act(self, module, inp, out):
        self.acts = out

    def _save_grad(self, module, gin, gout):
        self.grads = gout[0]

    def __call__(self, input_tensor, targets):
        output = self.model(input_tensor)
        self.model.zero_grad()
        score = sum(t(o) for t, o in zip(targets, output))
        score.backward()
        weights = self.grads.mean(dim=(2, 3), keepdim=True)
        cam = torch.relu((weights * self.acts).sum(dim=1))
        return (cam / (cam.amax(dim=(1, 2), keepdim=True) + 1e-7)).detach().cpu().numpy()


def explain_on_cpu(seg_model, image, category, class_mask):
    seg_model = seg_model.to("cpu")
    x = torch.from_numpy(image).permute(2, 0, 1)[None].float().to("cpu")
    cam = SimpleGradCAM(seg_model, seg_model.backbone.layer4)
    target = SemanticSegmentationTarget(category, np.float32(class_mask))
    return cam(x, [target])[0]
