from sodamem.cli import main

main()
