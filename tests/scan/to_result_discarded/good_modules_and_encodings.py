import torch
from torch import nn
from transformers import AutoTokenizer

device = torch.device("cuda")
encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(512, 8, batch_first=True), num_layers=6)
encoder.to(device)  # a module moves in place: fine as a statement
head = nn.Linear(512, 2)
head.cuda()
tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")
inputs = tokenizer(["hello world"], return_tensors="pt")
inputs.to(device)  # BatchEncoding.to() moves its tensors in place and returns itself
x = torch.randn(4, 16, 512)
x = x.to(device)
print(encoder(x).shape, head)
