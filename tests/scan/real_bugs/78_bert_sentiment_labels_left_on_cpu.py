# source: https://github.com/zhangxiann/BertPractice/pull/1
# also: https://github.com/zhangxiann/BertPractice/commit/75956751499bca10393af1bc5d851e602ad6a5cd
# kind: inputs_not_moved
# bug: both the train and the evaluate loops moved the tokenized text to the device but passed the batch's labels to the CUDA BERT classifier while they were still on the CPU; the fix moved the labels too.
# split: dev2
import torch
from transformers import BertForSequenceClassification, BertTokenizer

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
tok = BertTokenizer.from_pretrained("bert-base-uncased")
model = BertForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=2)
model.to(device)


def run_epoch(loader, optim):
    model.train()
    for batch in loader:
        y = batch["label"]
        enc = tok(batch["text"], padding=True, truncation=True, return_tensors="pt").to(device)
        out = model(**enc, labels=y)  # bug: inputs_not_moved
        optim.zero_grad()
        out.loss.backward()
        optim.step()


def evaluate(loader):
    model.eval()
    hits = 0
    with torch.no_grad():
        for batch in loader:
            y = batch["label"]
            enc = tok(batch["text"], padding=True, truncation=True, return_tensors="pt").to(device)
            out = model(**enc, labels=y)  # bug: inputs_not_moved
            hits += (out.logits.argmax(1) == y).sum().item()
    return hits
