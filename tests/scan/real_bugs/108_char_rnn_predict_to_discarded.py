# source: https://github.com/gabrielloye/RNN-walkthrough/pull/2
# also: https://github.com/gabrielloye/RNN-walkthrough/commit/3619b2844d044eeaebf0414f1adfe5c41a33ac1d
# kind: to_result_discarded
# bug: (notebook) the character-RNN tutorial put the model on the GPU, but its predict helper called `character.to(device)` without keeping the result and fed the CPU one-hot tensor to the CUDA model (the training cell also left the targets on the CPU); the merged fix assigns the result of every `.to(device)`.
# split: test3
import numpy as np
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class CharRNN(nn.Module):
    def __init__(self, vocab, hidden=12):
        super().__init__()
        self.rnn = nn.RNN(vocab, hidden, batch_first=True)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, x):
        out, h = self.rnn(x)
        return self.head(out.reshape(-1, out.size(-1))), h


def one_hot(seq, vocab):
    arr = np.zeros((1, len(seq), vocab), dtype=np.float32)
    for i, idx in enumerate(seq):
        arr[0, i, idx] = 1.0
    return arr


def predict_next(model, text, char_to_id, id_to_char):
    ids = [char_to_id[c] for c in text]
    chars = torch.from_numpy(one_hot(ids, len(char_to_id)))
    chars.to(device)  # bug: to_result_discarded
    logits, _ = model(chars)
    probs = torch.softmax(logits[-1], dim=0)
    return id_to_char[int(probs.argmax())]


def sample(model, start, char_to_id, id_to_char, length=15):
    model.eval()
    text = start
    while len(text) < length:
        text += predict_next(model, text, char_to_id, id_to_char)
    return text


if __name__ == "__main__":
    vocab = sorted(set("hey how are you"))
    c2i = {c: i for i, c in enumerate(vocab)}
    i2c = {i: c for c, i in c2i.items()}
    net = CharRNN(len(vocab)).to(device)
    print(sample(net, "hey", c2i, i2c))
