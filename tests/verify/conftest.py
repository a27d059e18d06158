"""The mark of the verify tests that take minutes (the sweep over every shipped spec)."""


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: takes minutes (verify over every shipped spec); -m 'not slow' leaves it out")
