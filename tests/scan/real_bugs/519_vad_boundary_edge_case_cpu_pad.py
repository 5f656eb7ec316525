# source: https://github.com/speechbrain/speechbrain/pull/2015
# kind: tensor_no_device_in_forward
# bug: the pretrained VAD interface's get_boundaries() handled the edge case of speech starting in the last frames by concatenating a padding value built with torch.Tensor([1.0]) (always on the CPU) to the frame decisions, which live on the run device, so VAD with run_opts device=cuda crashed in torch.cat ("expected all tensors to be on the same device") whenever that branch ran; the fix moves the padding tensor to self.device.
# split: test24
import torch
import torch.nn as nn


class FrameClassifier(nn.Module):
    def __init__(self, n_feats=40):
        super().__init__()
        self.rnn = nn.GRU(n_feats, 32, batch_first=True)
        self.out = nn.Linear(32, 1)

    def forward(self, feats):
        h, _ = self.rnn(feats)
        return torch.sigmoid(self.out(h))


class VAD:
    def __init__(self, device="cpu", sample_rate=16000, time_resolution=0.01):
        self.device = device
        self.sample_rate = sample_rate
        self.time_resolution = time_resolution
        self.model = FrameClassifier().to(device).eval()

    def get_speech_prob(self, feats):
        with torch.no_grad():
            return self.model(feats.to(self.device))

    def apply_threshold(self, prob, activation_th=0.5):
        return (prob >= activation_th).int()

    def get_boundaries(self, prob_th, output_value="seconds"):
        shifted = torch.roll(prob_th, dims=1, shifts=1)
        shifted[:, 0, :] = 0
        prob_th = prob_th + shifted
        prob_th[:, 0, :] = (prob_th[:, 0, :] >= 1).int()
        prob_th[:, -1, :] = (prob_th[:, -1, :] >= 1).int()
        if (prob_th == 1).nonzero().shape[0] % 2 == 1:
            prob_th = torch.cat((prob_th, torch.Tensor([1.0]).unsqueeze(0).unsqueeze(2)), dim=1)  # bug: tensor_no_device_in_forward
        indexes = (prob_th == 1).nonzero()[:, 1].reshape(-1, 2)
        indexes[:, -1] = indexes[:, -1] - 1
        seconds = (indexes * self.time_resolution).float()
        samples = (self.sample_rate * seconds).round().int()
        return seconds if output_value == "seconds" else samples


if __name__ == "__main__":
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    vad = VAD(device=dev)
    feats = torch.randn(1, 300, 40)
    decisions = vad.apply_threshold(vad.get_speech_prob(feats))
    print(vad.get_boundaries(decisions))
