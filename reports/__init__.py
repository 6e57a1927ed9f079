"""Charts and HTML rendering of what `analyser` hands over; no analysis happens here."""
