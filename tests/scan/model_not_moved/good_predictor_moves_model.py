import torch


class Predictor:
    def __init__(self, model, batch_size=64):
        self.batch_size = batch_size
        self.device = "cuda" if torch.cuda.is_available() else "cpu"
        self.model = model
        self.model.to(self.device)

    def predict(self, rows):
        inputs = torch.as_tensor(rows, dtype=torch.float32).to(self.device)
        with torch.no_grad():
            return self.model(inputs).cpu()


class Scorer:
    def __init__(self, net):
        self.device = "cuda" if torch.cuda.is_available() else "cpu"
        self.net = net

    def score(self, rows):
        return self.net(torch.as_tensor(rows).to(self.device))


def predict_file(model_cls, checkpoint, rows):
    model = model_cls.load(checkpoint)
    return Predictor(model).predict(rows)


def score_file(model_cls, checkpoint, rows):
    net = model_cls.load(checkpoint).to("cuda")  # the caller moves it
    return Scorer(net).score(rows)
