import torch
from torch.utils.data import DataLoader
from transformers import AutoModelForCausalLM

model = AutoModelForCausalLM.from_pretrained("gpt2", torch_dtype=torch.bfloat16).to("cuda")
optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5)


def train(dataset):
    for batch in DataLoader(dataset, batch_size=8, num_workers=2, pin_memory=True):
        batch = {k: v.to("cuda", non_blocking=True) for k, v in batch.items()}
        loss = model(**batch).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
