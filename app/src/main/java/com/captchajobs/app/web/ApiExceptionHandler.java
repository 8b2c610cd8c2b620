package com.captchajobs.app.web;

import com.captchajobs.core.InvalidSolveRequestException;
import com.captchajobs.core.ReportNotAcceptedException;
import com.captchajobs.core.SolveConflictException;
import com.captchajobs.core.SolveException;
import com.captchajobs.core.SolveFailedException;
import com.captchajobs.core.SolveNotFoundException;
import com.captchajobs.core.TokenAlreadyClaimedException;
import com.captchajobs.core.TokenExpiredException;
import com.captchajobs.core.TokenNotReadyException;
import com.captchajobs.node.security.ProblemAnswers;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.beans.TypeMismatchException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Every error of the API as {@code application/problem+json}, naming the field when there is one.
 */
@RestControllerAdvice(assignableTypes = {SolvesController.class, OperatorController.class})
class ApiExceptionHandler extends ResponseEntityExceptionHandler {

  @ExceptionHandler(ApiProblem.class)
  ResponseEntity<ProblemDetail> problem(ApiProblem e, HttpServletRequest request) {
    ProblemDetail p =
        ProblemAnswers.problem(
            e.status(), e.title(), e.field(), e.getMessage(), request.getRequestURI());
    if (e.retryAfterSeconds() != null) {
      return ResponseEntity.status(p.getStatus())
          .header(HttpHeaders.RETRY_AFTER, String.valueOf(e.retryAfterSeconds()))
          .contentType(MediaType.APPLICATION_PROBLEM_JSON)
          .body(p);
    }
    return answer(p);
  }

  @ExceptionHandler(SolveException.class)
  ResponseEntity<ProblemDetail> solve(SolveException e, HttpServletRequest request) {
    String uri = request.getRequestURI();
    ProblemDetail p;
    if (e instanceof InvalidSolveRequestException i) {
      p =
          ProblemAnswers.problem(
              HttpStatus.BAD_REQUEST, "Invalid request", i.field(), i.getMessage(), uri);
    } else if (e instanceof SolveConflictException c) {
      p =
          ProblemAnswers.problem(
              HttpStatus.CONFLICT, "Business key in use", "businessKey", c.getMessage(), uri);
      p.setProperty("existingId", String.valueOf(c.solveId()));
    } else if (e instanceof SolveNotFoundException) {
      p = ProblemAnswers.problem(HttpStatus.NOT_FOUND, "Not found", null, e.getMessage(), uri);
    } else if (e instanceof TokenNotReadyException r) {
      p = ProblemAnswers.problem(HttpStatus.CONFLICT, "Not solved yet", null, r.getMessage(), uri);
      p.setProperty("solveStatus", r.status().name());
    } else if (e instanceof TokenAlreadyClaimedException) {
      p = ProblemAnswers.problem(HttpStatus.CONFLICT, "Already claimed", null, e.getMessage(), uri);
    } else if (e instanceof TokenExpiredException) {
      p = ProblemAnswers.problem(HttpStatus.GONE, "Token expired", null, e.getMessage(), uri);
    } else if (e instanceof SolveFailedException f) {
      p = ProblemAnswers.problem(HttpStatus.CONFLICT, "Solve failed", null, f.getMessage(), uri);
      p.setProperty("errorCode", f.errorCode());
      p.setProperty("errorClass", f.errorClass());
    } else if (e instanceof ReportNotAcceptedException r) {
      p = ProblemAnswers.problem(HttpStatus.CONFLICT, "Not reportable", null, r.getMessage(), uri);
      p.setProperty("reason", r.reason().name());
    } else {
      p =
          ProblemAnswers.problem(
              HttpStatus.SERVICE_UNAVAILABLE, "Timed out", null, e.getMessage(), uri);
    }
    return answer(p);
  }

  /**
   * A query or path parameter that does not convert (a page number that does not fit an int, say):
   * 400 naming the parameter, as every other bad input.
   */
  @Override
  protected ResponseEntity<Object> handleTypeMismatch(
      TypeMismatchException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
    String field = ex.getPropertyName();
    ProblemDetail p =
        ProblemAnswers.problem(
            HttpStatus.BAD_REQUEST,
            "Invalid request",
            field,
            (field == null ? "a parameter" : field) + " is not a valid value of its type",
            request instanceof ServletWebRequest w ? w.getRequest().getRequestURI() : null);
    return ResponseEntity.status(HttpStatus.BAD_REQUEST)
        .contentType(MediaType.APPLICATION_PROBLEM_JSON)
        .body(p);
  }

  private static ResponseEntity<ProblemDetail> answer(ProblemDetail p) {
    return ResponseEntity.status(p.getStatus())
        .contentType(MediaType.APPLICATION_PROBLEM_JSON)
        .body(p);
  }
}
