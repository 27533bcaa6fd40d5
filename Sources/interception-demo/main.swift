import Interception
print("interception-demo")
