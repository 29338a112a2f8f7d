from firmware.cli import main

raise SystemExit(main())
