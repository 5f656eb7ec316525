import torch
from torch import nn
from transformers import AutoModelForCausalLM, AutoTokenizer

device = torch.device("cuda")


class Runner:
    def __init__(self, net, valid_loader):
        self.net = net.to(device)
        self.valid_loader = valid_loader

    def check(self):
        frames, future = next(iter(self.valid_loader))
        pred = self.net(frames)  # expect: code.inputs_not_moved
        return pred, future


def test(net, loader):
    correct = 0
    for images, labels in loader:
        outputs = net(images.to(device))
        correct += (outputs.argmax(1) == labels).sum().item()  # expect: code.inputs_not_moved
    return correct


class Generator:
    def __init__(self, name):
        self.tok = AutoTokenizer.from_pretrained(name)
        self.model = AutoModelForCausalLM.from_pretrained(name).to(device)

    def encode(self, text):
        return self.tok(text, return_tensors="pt")

    def run(self, text):
        enc = self.encode(text)
        ids, mask = enc["input_ids"], enc.get("attention_mask")
        return self.model.generate(input_ids=ids.to(device), attention_mask=mask)  # expect: code.inputs_not_moved
