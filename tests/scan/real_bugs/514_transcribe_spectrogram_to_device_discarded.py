# source: https://github.com/SeanNaren/deepspeech.pytorch/issues/367
# kind: to_result_discarded
# bug: the transcribe helper loaded the acoustic model on the requested device (CUDA with --cuda) but "moved" the parsed spectrogram with a bare spect.to(device) whose result was thrown away, so the CPU spectrogram reached the CUDA model and transcription with --cuda crashed in the first convolution; the fix assigns the result (spect = spect.to(device)).
# split: test24
import argparse
import json

import torch
import torch.nn as nn


class SpectrogramParser:
    def __init__(self, n_freq=161):
        self.n_freq = n_freq

    def parse_audio(self, path):
        n_frames = 200 + (abs(hash(path)) % 50)
        return torch.randn(self.n_freq, n_frames)


class SpeechModel(nn.Module):
    def __init__(self, n_freq=161, hidden=64, labels="_abcdefghijklmnopqrstuvwxyz "):
        super().__init__()
        self.labels = labels
        self.conv = nn.Conv2d(1, 8, kernel_size=(41, 11), stride=(2, 2), padding=(20, 5))
        self.rnn = nn.GRU(8 * ((n_freq + 1) // 2), hidden, batch_first=True)
        self.fc = nn.Linear(hidden, len(labels))

    def forward(self, x, lengths):
        x = self.conv(x)
        b, c, f, t = x.shape
        x, _ = self.rnn(x.permute(0, 3, 1, 2).reshape(b, t, c * f))
        return self.fc(x).log_softmax(-1), (lengths + 1) // 2


def greedy_decode(out, labels):
    ids = out.argmax(-1)[0].tolist()
    return "".join(labels[i] for i in ids if i != 0)


def transcribe(audio_path, parser, model, device):
    spect = parser.parse_audio(audio_path).contiguous()
    spect = spect.view(1, 1, spect.size(0), spect.size(1))
    spect.to(device)  # bug: to_result_discarded
    input_sizes = torch.IntTensor([spect.size(3)]).int()
    out, output_sizes = model(spect, input_sizes)
    return greedy_decode(out, model.labels), output_sizes


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--audio-path", default="audio.wav")
    ap.add_argument("--cuda", action="store_true")
    args = ap.parse_args()
    device = torch.device("cuda" if args.cuda else "cpu")
    model = SpeechModel().to(device).eval()
    with torch.no_grad():
        text, _ = transcribe(args.audio_path, SpectrogramParser(), model, device)
    print(json.dumps({"transcription": text}))
