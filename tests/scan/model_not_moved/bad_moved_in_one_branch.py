# A factory that moves the model it builds but returns the pretrained one as loaded: callers that
# ask for a pretrained model get it on the CPU.
import torch

from zoo import Classifier, ClassifierConfig  # classes this file cannot see


def make_model(cfg, checkpoint=None):
    if checkpoint is None:
        model = Classifier(ClassifierConfig(**cfg))
        model.to(torch.device(cfg["device"]))
    else:
        model = Classifier.from_pretrained(checkpoint)  # expect: code.model_not_moved
    return model
