# source: https://github.com/rasbt/LLM-workshop-2024/issues/6
# also: https://github.com/rasbt/LLM-workshop-2024/commit/d5f3e99949291672160992b987b40fecf42905c2
# kind: inputs_not_moved
# bug: in the pretraining notebook's exercise solution, the GPT model had already been moved to cuda for training, but the start context was encoded with text_to_token_ids(...) and handed to the generation loop as a CPU tensor, so the embedding lookup failed with "found at least two devices"; the fix appends .to(device) to the encoded prompt.
# split: test7
import tiktoken
import torch
import torch.nn as nn


class MiniGPT(nn.Module):
    def __init__(self, vocab_size=50257, ctx=256, dim=128):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, dim)
        self.pos = nn.Embedding(ctx, dim)
        self.block = nn.TransformerEncoderLayer(dim, 4, batch_first=True)
        self.out = nn.Linear(dim, vocab_size, bias=False)

    def forward(self, idx):
        pos = torch.arange(idx.shape[1], device=idx.device)
        return self.out(self.block(self.tok(idx) + self.pos(pos)))


def text_to_token_ids(text, tokenizer):
    return torch.tensor(tokenizer.encode(text)).unsqueeze(0)


def generate_simple(model, idx, max_new_tokens, context_size):
    for _ in range(max_new_tokens):
        with torch.no_grad():
            logits = model(idx[:, -context_size:])[:, -1, :]
        idx = torch.cat((idx, logits.argmax(dim=-1, keepdim=True)), dim=1)
    return idx


def train_then_sample(train_loader, num_epochs=1):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = MiniGPT()
    model.to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=4e-4)
    for _ in range(num_epochs):
        for inputs, targets in train_loader:
            inputs, targets = inputs.to(device), targets.to(device)
            loss = nn.functional.cross_entropy(model(inputs).flatten(0, 1), targets.flatten())
            opt.zero_grad()
            loss.backward()
            opt.step()

    tokenizer = tiktoken.get_encoding("gpt2")
    token_ids = generate_simple(
        model=model,
        idx=text_to_token_ids("Every effort moves you", tokenizer),  # bug: inputs_not_moved
        max_new_tokens=10,
        context_size=256,
    )
    return tokenizer.decode(token_ids.squeeze(0).tolist())
