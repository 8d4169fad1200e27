; Blocks World for infoseek's planning engine (written for this project).
; One arm; a block is on the table, on one other block, or held; at most one block
; sits on any block. Four actions: pick-up and put-down (table), stack and unstack
; (onto / from another block).
(define (domain infoseek-blocks)
  (:requirements :strips)
  (:predicates (on ?top ?below) (ontable ?x) (clear ?x) (handempty) (holding ?x))

  (:action pick-up
    :parameters (?x)
    :precondition (and (clear ?x) (ontable ?x) (handempty))
    :effect (and (holding ?x)
                 (not (ontable ?x)) (not (clear ?x)) (not (handempty))))

  (:action put-down
    :parameters (?x)
    :precondition (holding ?x)
    :effect (and (ontable ?x) (clear ?x) (handempty)
                 (not (holding ?x))))

  (:action stack
    :parameters (?x ?y)
    :precondition (and (holding ?x) (clear ?y))
    :effect (and (on ?x ?y) (clear ?x) (handempty)
                 (not (holding ?x)) (not (clear ?y))))

  (:action unstack
    :parameters (?x ?y)
    :precondition (and (on ?x ?y) (clear ?x) (handempty))
    :effect (and (holding ?x) (clear ?y)
                 (not (on ?x ?y)) (not (clear ?x)) (not (handempty)))))
