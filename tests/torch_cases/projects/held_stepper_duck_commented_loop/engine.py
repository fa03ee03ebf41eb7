import models


class Engine:
    def __init__(self, opt):
        self.opt = opt
        self.model = models.__dict__[opt.model]()
        self.model.initialize(opt)

    def train(self, train_loader):
        model = self.model
        history = []
        for data in train_loader:
            model.set_input(data)
            model.optimize_parameters()
            errors = model.get_current_errors()
            history.append(errors)
        return history
