console.log("zconform: not yet");
