# source: https://github.com/pengzhendong/streaming-sensevoice/pull/1
# kind: tensor_no_device_in_forward
# bug: the streaming ASR model's inference() moved every prompt-token index tensor to speech.device but built the sequence-length tensor with torch.tensor([speech.shape[1]]) on the CPU, so running the encoder on a GPU failed with "Expected all tensors to be on the same device"; the fix creates speech_lengths on the speech tensor's device.
# split: test24
import torch
import torch.nn as nn


class TinyEncoder(nn.Module):
    def __init__(self, dim=80, hidden=128):
        super().__init__()
        self.proj = nn.Linear(dim, hidden)
        self.layer = nn.TransformerEncoderLayer(hidden, 4, batch_first=True)

    def forward(self, x, lengths):
        steps = torch.arange(x.size(1), device=x.device)
        pad_mask = steps[None, :] >= lengths[:, None]
        return self.layer(self.proj(x), src_key_padding_mask=pad_mask), lengths


class CTCHead(nn.Module):
    def __init__(self, hidden=128, vocab=500):
        super().__init__()
        self.out = nn.Linear(hidden, vocab)

    def log_softmax(self, h):
        return self.out(h).log_softmax(-1)


class PromptedASR(nn.Module):
    def __init__(self, dim=80):
        super().__init__()
        self.lid_dict = {"auto": 0, "zh": 3, "en": 4}
        self.textnorm_dict = {"withitn": 14, "woitn": 15}
        self.embed = nn.Embedding(16, dim)
        self.encoder = TinyEncoder(dim)
        self.ctc = CTCHead()

    def inference(self, speech):
        speech = speech[None, :, :]
        speech_lengths = torch.tensor([speech.shape[1]])  # bug: tensor_no_device_in_forward
        textnorm = self.embed(torch.LongTensor([[self.textnorm_dict["woitn"]]]).to(speech.device))
        language = self.embed(torch.LongTensor([[self.lid_dict["zh"]]]).to(speech.device))
        event_emo = self.embed(torch.LongTensor([[1, 2]]).to(speech.device))
        speech = torch.cat((language, event_emo, textnorm, speech), dim=1)
        speech_lengths += 4
        encoder_out, _ = self.encoder(speech, speech_lengths)
        return self.ctc.log_softmax(encoder_out)[0, 4:]


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = PromptedASR().to(dev).eval()
    feats = torch.randn(120, 80, device=dev)
    with torch.no_grad():
        print(model.inference(feats).shape)
