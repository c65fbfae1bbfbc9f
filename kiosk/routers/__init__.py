"""One module per group of routes: state, ws (pushes), matches (exports), control (PIN), camera."""
