"""Who may change things: named accounts with roles, logging in and out, passwords."""
