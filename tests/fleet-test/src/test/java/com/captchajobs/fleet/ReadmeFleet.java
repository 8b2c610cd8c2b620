package com.captchajobs.fleet;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The shell block of the README's "Running a fleet", read as an operator reads it. The block is
 * made of paragraphs, each opened by comment lines: a paragraph with a {@code java -jar} command
 * sets up that node (its {@code export}s are that node's environment), and a paragraph without one
 * is for every node (its comment says so).
 */
record ReadmeFleet(Map<String, String> everyNode, List<Node> nodes) {

  /** One {@code java -jar} command: the jar's path, its arguments, and the node's own exports. */
  record Node(String jar, List<String> args, Map<String, String> env) {

    /** The environment this node runs with: every node's exports, then its own. */
    Map<String, String> environment(Map<String, String> everyNode) {
      Map<String, String> all = new LinkedHashMap<>(everyNode);
      all.putAll(env);
      return all;
    }
  }

  private static final String HEADING = "## Running a fleet";

  /** Reads the first {@code bash} block under the heading {@value #HEADING}. */
  static ReadmeFleet parse(String readme) {
    int heading = readme.indexOf(HEADING);
    if (heading < 0) {
      throw new IllegalStateException("README has no '" + HEADING + "'");
    }
    int open = readme.indexOf("```bash\n", heading);
    int close = readme.indexOf("\n```", open + 1);
    if (open < 0 || close < 0) {
      throw new IllegalStateException("no ```bash block under '" + HEADING + "'");
    }
    String block = readme.substring(open + "```bash\n".length(), close);

    Map<String, String> everyNode = new LinkedHashMap<>();
    List<Node> nodes = new ArrayList<>();
    List<String> comment = new ArrayList<>();
    Map<String, String> exports = new LinkedHashMap<>();
    boolean inComment = false;
    for (String raw : (block + "\n#").split("\n")) {
      String line = raw.strip();
      if (line.isEmpty()) {
        continue;
      }
      if (line.startsWith("#")) {
        if (!inComment) {
          // a new paragraph: what the previous one exported without a node was for every node
          closeParagraph(comment, exports, everyNode);
          comment.clear();
          exports = new LinkedHashMap<>();
        }
        inComment = true;
        comment.add(line);
        continue;
      }
      inComment = false;
      if (line.startsWith("export ")) {
        for (String assignment : line.substring("export ".length()).strip().split("\\s+")) {
          int eq = assignment.indexOf('=');
          if (eq < 1) {
            throw new IllegalStateException("not NAME=value: '" + assignment + "' in: " + line);
          }
          exports.put(assignment.substring(0, eq), assignment.substring(eq + 1));
        }
      } else if (line.startsWith("java -jar ")) {
        String[] words = line.substring("java -jar ".length()).strip().split("\\s+");
        nodes.add(new Node(words[0], List.of(words).subList(1, words.length), Map.copyOf(exports)));
        exports = new LinkedHashMap<>();
      } else {
        throw new IllegalStateException("a line this test cannot run: " + line);
      }
    }
    return new ReadmeFleet(Map.copyOf(everyNode), List.copyOf(nodes));
  }

  private static void closeParagraph(
      List<String> comment, Map<String, String> exports, Map<String, String> everyNode) {
    if (exports.isEmpty()) {
      return;
    }
    if (comment.isEmpty() || !comment.get(0).startsWith("# every node")) {
      throw new IllegalStateException(
          "exports " + exports.keySet() + " without a node, under a comment not for every node");
    }
    everyNode.putAll(exports);
  }

  /** The node started from {@code jar}. */
  Node node(String jar) {
    return nodes.stream()
        .filter(n -> n.jar().equals(jar))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no 'java -jar " + jar + "' in the README"));
  }
}
