# source: https://github.com/rasbt/reasoning-from-scratch/issues/20
# also: https://github.com/rasbt/reasoning-from-scratch/commit/d877e62e0c42c573a407e0e377ee672de8ad8bf2
# kind: inputs_not_moved
# bug: the chapter code moved the pretrained model to the selected device, then encoded the prompt with torch.tensor(...).unsqueeze(0) and passed that CPU tensor straight to the model; the fix adds `.to(device)` to the prompt batch.
# split: test18
import torch
import torch.nn as nn


class TinyCausalLM(nn.Module):
    def __init__(self, vocab=1000, dim=64, ctx=128):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(ctx, dim)
        layer = nn.TransformerEncoderLayer(dim, 4, 4 * dim, batch_first=True)
        self.body = nn.TransformerEncoder(layer, 2)
        self.out = nn.Linear(dim, vocab)

    def forward(self, ids):
        t = ids.shape[1]
        pos = torch.arange(t, device=ids.device)
        mask = nn.Transformer.generate_square_subsequent_mask(t, device=ids.device)
        return self.out(self.body(self.tok(ids) + self.pos(pos), mask=mask, is_causal=True))


def get_device():
    if torch.cuda.is_available():
        return torch.device("cuda")
    if torch.backends.mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")


class Tokenizer:
    def encode(self, text):
        return [ord(c) % 1000 for c in text]

    def decode(self, ids):
        return "".join(chr(97 + i % 26) for i in ids)


device = get_device()
model = TinyCausalLM()
model.to(device)
model.eval()

tokenizer = Tokenizer()
prompt = "Explain large language models."
input_token_ids_list = tokenizer.encode(prompt)
print(f"Number of input tokens: {len(input_token_ids_list)}")

input_tensor = torch.tensor(input_token_ids_list)
input_tensor_fmt = input_tensor.unsqueeze(0)  # bug: inputs_not_moved

with torch.no_grad():
    output_tensor = model(input_tensor_fmt)
output_tensor_fmt = output_tensor.squeeze(0)
next_id = output_tensor_fmt[-1].argmax().item()
print(tokenizer.decode([next_id]))
