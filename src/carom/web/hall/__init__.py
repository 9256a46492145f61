"""The hall monitor and the kiosk boards."""
