# A library of helpers: the evaluation helper walks the same name as the training one, but no
# caller here moves a model before handing it over (the CPU chapters use it as it is).
def evaluate_loss(net, data_iter, loss):
    total, n = 0.0, 0
    for X, y in data_iter:
        out = net(X)
        total += float(loss(out, y).sum())
        n += len(y)
    return total / n


def train(net, data_iter, loss, opt, device):
    net.to(device)
    for X, y in data_iter:
        X, y = X.to(device), y.to(device)
        l = loss(net(X), y).mean()
        opt.zero_grad()
        l.backward()
        opt.step()
