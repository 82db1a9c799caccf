from hypothesis import settings

# Solver calls vary in duration; hypothesis's per-example deadline would make tests flaky.
settings.register_profile("optsched", deadline=None, print_blob=True)
settings.load_profile("optsched")
