import torch
from torch.utils.data import DataLoader
from transformers import AutoModelForSequenceClassification, DataCollatorWithPadding

model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=2)
model.to("cuda")
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)


def train(dataset, tokenizer):
    loader = DataLoader(dataset, batch_size=32, shuffle=True, num_workers=4)
    for batch in loader:
        with torch.autocast("cuda", dtype=torch.bfloat16):
            outputs = model(**batch)  # expect: code.inputs_not_moved
        outputs.loss.backward()
        optimizer.step()
        optimizer.zero_grad()
