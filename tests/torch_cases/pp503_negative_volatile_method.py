"""A PyTorch 0.3-era loader class whose wrapping method takes `volatile` as a parameter and is given
`self.evaluation` by the class itself: the constructor's call (`evaluation=True`) says nothing of the
method's parameter, so the evaluation's inputs count as volatile and the loop is not reported."""

from torch.autograd import Variable


class BatchMaker:
    def __init__(self, data, evaluation=False):
        self.data, self.evaluation = data, evaluation

    def __iter__(self):
        for x, y in self.data:
            yield self.wrap(x, self.evaluation), self.wrap(y, self.evaluation)

    def wrap(self, t, volatile=False):
        return Variable(t.cuda(), volatile=volatile)


val_data = BatchMaker(list(range(10)), evaluation=True)


def evaluate(model):
    model.eval()
    correct = 0
    for x, y in val_data:
        correct += (model(x).data.max(1)[1] == y.data).sum()
    return correct
