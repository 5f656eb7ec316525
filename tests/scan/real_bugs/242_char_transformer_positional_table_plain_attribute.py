# source: https://github.com/wingedsheep/transformer/issues/4
# also: https://github.com/wingedsheep/transformer/commit/49ac0cbbf7f77f913ee5ea90ef0bfa33563d6814
# kind: attribute_not_buffer
# bug: the from-scratch GPT's PositionalEncoding built its sin/cos table with numpy in __init__ and stored `torch.from_numpy(table).float()` as a plain attribute, so `model.to(get_device())` left it on the CPU and adding it to the CUDA token embeddings failed with "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"; the maintainer's fix moves the table to `get_device()` when it is built (it was not registered as a buffer).
# split: test11
import numpy as np
import torch


def get_device():
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


class PositionalEncoding(torch.nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        self.d_model = d_model
        self.max_len = max_len
        self.table = self._build()  # bug: attribute_not_buffer

    def _build(self):
        pe = np.zeros((self.max_len, self.d_model))
        for pos in range(self.max_len):
            for i in range(0, self.d_model, 2):
                pe[pos, i] = np.sin(pos / (10000 ** (i / self.d_model)))
                if i + 1 < self.d_model:
                    pe[pos, i + 1] = np.cos(pos / (10000 ** (i / self.d_model)))
        return torch.from_numpy(pe).float()

    def forward(self, x):
        return x + self.table[: x.size(1), :]


class TinyLanguageModel(torch.nn.Module):
    def __init__(self, vocab, d_model=64, max_len=128, heads=4, layers=2):
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, d_model)
        self.pos = PositionalEncoding(d_model, max_len)
        block = torch.nn.TransformerEncoderLayer(d_model, heads, 4 * d_model, batch_first=True)
        self.blocks = torch.nn.TransformerEncoder(block, layers)
        self.head = torch.nn.Linear(d_model, vocab)

    def forward(self, tokens, pad_mask):
        h = self.pos(self.embed(tokens))
        causal = torch.nn.Transformer.generate_square_subsequent_mask(tokens.size(1)).to(tokens.device)
        h = self.blocks(h, mask=causal, src_key_padding_mask=pad_mask == 0)
        return self.head(h)


def train(model, batches, epochs=1):
    opt = torch.optim.Adam(model.parameters(), lr=3e-4)
    loss_fn = torch.nn.CrossEntropyLoss()
    for _ in range(epochs):
        for tokens, mask in batches:
            tokens, mask = tokens.to(get_device()), mask.to(get_device())
            logits = model(tokens[:, :-1], mask[:, :-1])
            loss = loss_fn(logits.reshape(-1, logits.size(-1)), tokens[:, 1:].reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()


if __name__ == "__main__":
    model = TinyLanguageModel(vocab=40).to(get_device())
    data = [(torch.randint(0, 40, (8, 33)), torch.ones(8, 33, dtype=torch.long))]
    train(model, data)
