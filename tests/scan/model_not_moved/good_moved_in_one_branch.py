# Models built in two branches of an if: these are all placed where they run.
import torch

from zoo import Classifier, ClassifierConfig  # classes this file cannot see


def make_model(cfg, checkpoint=None):
    # Moved once, after both branches.
    if checkpoint is None:
        model = Classifier(ClassifierConfig(**cfg))
    else:
        model = Classifier.from_pretrained(checkpoint)
    model.to(cfg["device"])
    return model


def make_placed(cfg, checkpoint=None):
    # The loader places the weights itself.
    if checkpoint is None:
        model = Classifier(ClassifierConfig(**cfg)).cuda()
    else:
        model = Classifier.from_pretrained(checkpoint, device_map="cuda")
    return model


def make_for(cfg, use_cpu=False):
    # The CPU branch is the user's choice.
    if use_cpu:
        model = Classifier(ClassifierConfig(**cfg))
    else:
        model = Classifier(ClassifierConfig(**cfg)).to("cuda")
    return model
