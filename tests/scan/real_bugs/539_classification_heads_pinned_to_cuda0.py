# source: https://github.com/Hendrik-code/spineps/issues/46
# kind: wrong_device_choice
# bug: the vertebra-labeling classifier built its per-group classification heads with a hard-coded device="cuda:0" while the DenseNet backbone was created normally and the inference wrapper moved the model to the device chosen from the use_cpu flag, so CPU runs (and machines where another GPU was selected) hit heads stranded on cuda:0; the fix (#47) builds the heads on self.device.
# split: test25
import torch
from torch import nn


class Backbone3D(nn.Module):
    def __init__(self, in_ch=1, out_ch=64):
        super().__init__()
        self.features = nn.Sequential(nn.Conv3d(in_ch, out_ch, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool3d(1),
                                      nn.Flatten())

    def forward(self, x):
        return self.features(x)


class LabelingClassifier(nn.Module):
    def __init__(self, group_2_n_channel: dict, in_channel=1, fully_connected=True):
        super().__init__()
        self.net = Backbone3D(in_channel, 64)
        self.group_2_n_channel = group_2_n_channel
        self.heads = self.build_classification_heads(64, fully_connected)
        self.softmax = nn.Softmax(dim=1)

    @property
    def device(self):
        return next(self.net.parameters()).device

    def build_classification_heads(self, linear_in: int, fully_connected: bool) -> nn.ModuleDict:
        def one_head(output_classes: int) -> nn.Sequential:
            modules = []
            n = linear_in
            if fully_connected:
                modules.append(nn.Linear(n, n // 2, device=self.device))
                modules.append(nn.ReLU())
                n = n // 2
            modules.append(nn.Linear(n, output_classes, device="cuda:0"))  # bug: wrong_device_choice
            return nn.Sequential(*modules)

        return nn.ModuleDict({k: one_head(v) for k, v in self.group_2_n_channel.items()})

    def forward(self, x):
        feats = self.net(x)
        return {k: head(feats) for k, head in self.heads.items()}


class VertebraLabeler:
    def __init__(self, model: LabelingClassifier, use_cpu: bool = False):
        self.device = torch.device("cuda:0" if torch.cuda.is_available() and not use_cpu else "cpu")
        self.model = model.to(self.device).eval()

    @torch.no_grad()
    def run(self, crop: torch.Tensor):
        logits = self.model(crop.to(self.device))
        return {k: self.model.softmax(v).argmax(1).cpu() for k, v in logits.items()}


if __name__ == "__main__":
    clf = LabelingClassifier({"region": 3, "vertebra": 24})
    print(VertebraLabeler(clf, use_cpu=True).run(torch.rand(2, 1, 16, 32, 32)))
