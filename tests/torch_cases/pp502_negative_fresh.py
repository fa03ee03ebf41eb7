import torch


def fit(model_0, X_train, y_train, X_test, y_test, loss_fn, optimizer, epochs):
    loss_values, test_loss_values = [], []
    for _ in range(epochs):
        model_0.train()
        loss = loss_fn(model_0(X_train), y_train)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        model_0.eval()
        with torch.inference_mode():
            test_loss = loss_fn(model_0(X_test), y_test)
        test_loss_values.append(test_loss)
        loss_values.append(loss.item())
    return loss_values, test_loss_values


def train_from_scratch(model, train_loader, loss_func, to_onehot, learning_rate, num_epochs):
    """An MLP that computes its own gradients: its tensors carry no autograd graph."""
    minibatch_cost = []
    for _ in range(num_epochs):
        for features, targets in train_loader:
            a_1, a_2 = model.forward(features)
            dw1, db1, dw_out, db_out = model.backward(features, a_1, a_2, targets)
            model.weight_1 -= learning_rate * dw1
            model.bias_1 -= learning_rate * db1
            model.weight_o -= learning_rate * dw_out
            model.bias_o -= learning_rate * db_out
            curr_cost = loss_func(to_onehot(targets, model.num_classes), a_2)
            minibatch_cost.append(curr_cost)
    return minibatch_cost
